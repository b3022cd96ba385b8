require 'rbnacl'

alice = RbNaCl::PrivateKey.generate # expect: key-agreement X25519
bob = RbNaCl::PrivateKey.generate # expect: key-agreement X25519
box = RbNaCl::Box.new(bob.public_key, alice) # expect: key-agreement X25519
nonce = RbNaCl::Random.random_bytes(box.nonce_bytes)
ciphertext = box.encrypt(nonce, 'secret message')

signer = RbNaCl::SigningKey.generate # expect: key-generation EdDSA
signature = signer.sign(ciphertext) # expect: signature EdDSA
signer.verify_key.verify(signature, ciphertext) # expect: signature EdDSA
