module Crypto
  RSA = OpenSSL::PKey::RSA
  EC = OpenSSL::PKey::EC

  def self.keys
    [RSA.new(2048), EC.generate('secp256k1')] # expect: key-generation RSA; key-generation ECDSA
  end
end
