class ApiKey < ApplicationRecord
  before_validation :generate_key, on: :create

  def self.generate(length = 32)
    SecureRandom.alphanumeric(length)
  end

  private

  def generate_key
    self.token ||= ApiKey.generate(40)
  end
end
