# frozen_string_literal: true

class SigningKey < ApplicationRecord
  encrypts :private_pem

  before_create :generate_key_pair

  private

  def generate_key_pair
    key = OpenSSL::PKey::RSA.new(2048) # expect: key-generation RSA
    self.private_pem = key.to_pem
    self.public_pem = key.public_key.to_pem
  end
end
