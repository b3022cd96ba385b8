class KeyPairBuilder
  def default_bits
    3072
  end

  def build(bits = default_bits)
    OpenSSL::PKey::RSA.new(bits) # expect: key-generation RSA
  end
end
