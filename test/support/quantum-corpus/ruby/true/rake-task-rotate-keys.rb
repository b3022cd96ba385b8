namespace :keys do
  desc 'Rotate the JWT signing key'
  task rotate: :environment do
    key_size = ENV.fetch('KEY_SIZE', 2048).to_i
    key = OpenSSL::PKey::RSA.new(key_size) # expect: key-generation RSA
    SigningKeyRecord.create!(kid: SecureRandom.uuid, pem: key.to_pem)
    puts "rotated #{key.n.num_bits}-bit key"
  end
end
