require 'openssl'

class CertificateExpiry
  def initialize(pem)
    @certificate = OpenSSL::X509::Certificate.new(pem)
  end

  def days_left
    ((@certificate.not_after - Time.now) / 86_400).floor
  end

  def subject
    @certificate.subject.to_s
  end
end
