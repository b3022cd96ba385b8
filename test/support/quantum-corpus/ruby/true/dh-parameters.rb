require 'openssl'

class LegacyKeyExchange
  def initialize
    @dh = OpenSSL::PKey::DH.new(1024) # expect: key-agreement DH
  end

  def shared_secret(peer_public)
    @dh.compute_key(peer_public) # expect: key-agreement DH
  end
end
