require 'openssl'
include OpenSSL

class CertificateAuthority
  def initialize
    @ca_key = PKey::RSA.new(4096) # expect: key-generation RSA
  end

  def issue(csr)
    cert = X509::Certificate.new
    cert.public_key = csr.public_key
    cert.sign(@ca_key, Digest::SHA256.new) # expect: signature RSA
    cert
  end
end
