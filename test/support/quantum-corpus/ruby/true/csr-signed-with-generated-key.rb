require 'openssl'

def build_csr(common_name)
  key = OpenSSL::PKey::RSA.generate(2048) # expect: key-generation RSA
  request = OpenSSL::X509::Request.new
  request.subject = OpenSSL::X509::Name.parse("/CN=#{common_name}")
  request.public_key = key.public_key
  request.sign(key, OpenSSL::Digest::SHA256.new) # expect: signature RSA
  request
end
