module Auth
  class Jwks
    def self.algorithm
      'ES256'
    end

    def decode(token, public_key)
      JWT.decode(token, public_key, true, { algorithm: self.class.algorithm }) # expect: signature ECDSA
    end

    def encode(claims, key)
      JWT.encode(claims, key, Jwks.algorithm) # expect: signature ECDSA
    end
  end
end
