class CryptoSettings
  include ActiveModel::Model

  attr_accessor :algorithm, :key_size, :curve

  def self.defaults
    new(algorithm: 'RS256', key_size: 2048, curve: 'secp384r1')
  end

  def rsa?
    algorithm.start_with?('RS')
  end
end
