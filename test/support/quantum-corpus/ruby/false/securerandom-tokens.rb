module Tokens
  def self.reset_password
    SecureRandom.urlsafe_base64(32)
  end

  def self.otp
    format('%06d', SecureRandom.random_number(1_000_000))
  end
end
