class Saml::ResponseSigner
  def call(document)
    signature = private_key.sign(OpenSSL::Digest::SHA256.new, document.canonical) # expect: signature RSA
    document.attach_signature(signature)
  end

  private

  def private_key
    @private_key ||= OpenSSL::PKey::RSA.new(Rails.application.credentials.saml_key) # expect: key-material RSA
  end
end
