require 'openssl'

local = OpenSSL::PKey::EC.generate('prime256v1') # expect: key-generation ECDSA
peer = OpenSSL::PKey::EC.new(File.read('peer.pem')) # expect: key-material ECDSA
secret = local.derive(peer) # expect: key-agreement ECDH
puts secret.unpack1('H*')
