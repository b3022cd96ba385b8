require 'ed25519'

class ReleaseSigner
  def initialize(seed = nil)
    @signing_key = seed ? Ed25519::SigningKey.new(seed) : Ed25519::SigningKey.generate # expect: key-material EdDSA; key-generation EdDSA
  end

  def sign(artifact)
    @signing_key.sign(artifact) # expect: signature EdDSA
  end

  def verify_key_bytes
    @signing_key.verify_key.to_bytes
  end
end
