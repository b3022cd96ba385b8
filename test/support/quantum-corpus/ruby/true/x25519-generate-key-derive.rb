local = OpenSSL::PKey.generate_key('X25519') # expect: key-agreement X25519
remote = OpenSSL::PKey.generate_key('X25519') # expect: key-agreement X25519
shared = local.derive(remote) # expect: key-agreement X25519
puts shared.bytesize
