module Provisioning
  class DeviceIdentity
    def self.create!
      key = OpenSSL::PKey.generate_key( # expect: key-generation ECDSA
        'EC',
        ec_paramgen_curve: 'P-384'
      )
      new(key)
    end
  end
end
