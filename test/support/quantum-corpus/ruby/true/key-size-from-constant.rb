require 'openssl'

module Licensing
  class KeyFactory
    KEY_BITS = 1024

    def self.build
      OpenSSL::PKey::RSA.generate(KEY_BITS) # expect: key-generation RSA
    end
  end
end
