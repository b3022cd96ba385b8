class PssSigner
  def initialize(key)
    @key = key
  end

  def sign(data)
    @key.sign_pss('SHA256', data, salt_length: :digest, mgf1_hash: 'SHA256') # expect: signature RSA
  end
end
