class KeyMaker
  def rsa
    OpenSSL::PKey::RSA.new 2048 # expect: key-generation RSA
  end

  def ec(params)
    curve = params[:curve] || 'prime256v1'
    OpenSSL::PKey::EC.generate(curve) # expect: key-generation ECDSA
  end

  def from_env
    Ed25519::SigningKey.new(Base64.decode64(ENV.fetch('SIGNING_SEED'))) # expect: key-material EdDSA
  end
end
