class KeyRotationJob < ApplicationJob
  def perform(kid)
    Rails.logger.info("Rotating RSA key #{kid} (OpenSSL::PKey::RSA.new 2048)")
    Rails.logger.warn "ECDSA P-256 key expires soon; JWT.encode with 'RS256' still used"
    puts 'SSHKey.generate is deprecated here'
  end
end
