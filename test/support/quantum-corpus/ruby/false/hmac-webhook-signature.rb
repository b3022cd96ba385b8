class StripeWebhook
  def valid?(payload, header, secret)
    expected = OpenSSL::HMAC.hexdigest('SHA256', secret, payload)
    Rack::Utils.secure_compare(expected, header)
  end

  def sign(payload, secret)
    OpenSSL::HMAC.hexdigest(OpenSSL::Digest.new('sha256'), secret, payload)
  end
end
