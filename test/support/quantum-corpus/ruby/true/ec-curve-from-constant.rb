require "openssl"

ALG = 'prime256v1'.freeze

def device_key
  OpenSSL::PKey::EC.generate(ALG) # expect: key-generation ECDSA
end

def sign_payload(key, payload)
  key.sign(OpenSSL::Digest.new("SHA256"), payload) # expect: signature ECDSA
end

sign_payload(device_key, "hello")
