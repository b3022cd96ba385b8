class CardVault
  def initialize(public_pem, private_pem)
    @public_key = OpenSSL::PKey::RSA.new(public_pem) # expect: key-material RSA
    @private_key = OpenSSL::PKey::RSA.new(private_pem, ENV.fetch('VAULT_PASSPHRASE')) # expect: key-material RSA
  end

  def seal(pan)
    @public_key.public_encrypt(pan, OpenSSL::PKey::RSA::PKCS1_OAEP_PADDING) # expect: encryption RSA
  end

  def open(blob)
    @private_key.private_decrypt(blob, OpenSSL::PKey::RSA::PKCS1_OAEP_PADDING) # expect: encryption RSA
  end
end
