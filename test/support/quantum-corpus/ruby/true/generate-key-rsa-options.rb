require 'openssl'

module Pki
  module Keys
    module_function

    def rsa(bits: 3072)
      OpenSSL::PKey.generate_key('RSA', rsa_keygen_bits: bits) # expect: key-generation RSA
    end

    def ec
      OpenSSL::PKey.generate_key('EC', ec_paramgen_curve: 'secp384r1') # expect: key-generation ECDSA
    end
  end
end
