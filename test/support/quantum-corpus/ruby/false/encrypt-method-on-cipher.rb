class Obfuscator
  def initialize(cipher)
    @cipher = cipher
  end

  def call(value)
    @cipher.encrypt(value)
  end

  def reverse(value)
    @cipher.decrypt(value)
  end
end
