class TokenIssuer
  def initialize(private_key)
    @private_key = private_key
  end

  def issue(user)
    payload = { sub: user.id, exp: 15.minutes.from_now.to_i }
    JWT.encode(payload, @private_key, 'RS256') # expect: signature RSA
  end
end
