class ApiTokenVerifier
  ALGORITHMS = ['RS256'].freeze

  def verify(token)
    JWT.decode(token, public_key, true, algorithms: ALGORITHMS, iss: 'auth') # expect: signature RSA
  end
end
