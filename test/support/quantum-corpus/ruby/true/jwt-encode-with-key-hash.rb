class OidcClientAssertion
  ALG = 'PS256'

  def build(client_id, key)
    JWT.encode( # expect: signature RSA
      { iss: client_id, sub: client_id, exp: Time.now.to_i + 60 },
      key,
      ALG,
      { kid: key_id(key) }
    )
  end
end
