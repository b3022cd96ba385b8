dsa = OpenSSL::PKey::DSA.new(1024) # expect: key-generation DSA
digest = OpenSSL::Digest.new('SHA1')
sig = dsa.sign(digest, 'release-1.2.3.tar.gz') # expect: signature DSA
puts dsa.verify(digest, sig, 'release-1.2.3.tar.gz') # expect: signature DSA
