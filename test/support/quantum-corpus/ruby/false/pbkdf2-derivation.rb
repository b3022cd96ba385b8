def derive(password, salt)
  OpenSSL::KDF.pbkdf2_hmac(password, salt: salt, iterations: 600_000, length: 32, hash: 'sha256')
end
