class FieldEncryptor
  def encrypt(plain, key)
    cipher = OpenSSL::Cipher.new('aes-256-gcm')
    cipher.encrypt
    cipher.key = key
    iv = cipher.random_iv
    [iv, cipher.update(plain) + cipher.final, cipher.auth_tag]
  end

  def decrypt(iv, data, tag, key)
    cipher = OpenSSL::Cipher.new('aes-256-gcm').decrypt
    cipher.key = key
    cipher.iv = iv
    cipher.auth_tag = tag
    cipher.update(data) + cipher.final
  end
end
