class WebhookVerifier
  def initialize
    @public_key = OpenSSL::PKey::EC.new(ENV.fetch('WEBHOOK_PUBLIC_KEY')) # expect: key-material ECDSA
  end

  def valid?(body, signature)
    @public_key&.verify('SHA256', signature, body) # expect: signature ECDSA
  end
end
