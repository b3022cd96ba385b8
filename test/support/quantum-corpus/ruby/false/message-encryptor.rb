class CookieVault
  def initialize(secret)
    key = ActiveSupport::KeyGenerator.new(secret).generate_key('cookie vault', 32)
    @encryptor = ActiveSupport::MessageEncryptor.new(key)
  end

  def dump(value)
    @encryptor.encrypt_and_sign(value)
  end

  def load(blob)
    @encryptor.decrypt_and_verify(blob)
  end
end
