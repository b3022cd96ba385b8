class DeployConfig
  def rsa_key_path
    ENV.fetch('RSA_KEY_PATH', 'config/keys/rsa.pem')
  end

  def ecdsa_public_key_file
    Rails.root.join('config', 'keys', 'ecdsa.pub')
  end

  def exists?
    File.exist?(rsa_key_path) && File.exist?(ecdsa_public_key_file)
  end
end
