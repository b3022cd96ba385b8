require 'openssl'
require 'base64'

class WebhookSigner
  def initialize(pem_path)
    @key = OpenSSL::PKey::RSA.new(File.read(pem_path)) # expect: key-material RSA
  end

  def signature_for(body)
    Base64.strict_encode64(@key.sign(OpenSSL::Digest::SHA256.new, body)) # expect: signature RSA
  end
end
