require 'openssl'

signing_key = OpenSSL::PKey.generate_key('ED25519') # expect: key-generation EdDSA
signature = signing_key.sign(nil, File.binread(ARGV[0])) # expect: signature EdDSA
File.binwrite("#{ARGV[0]}.sig", signature)
