require 'openssl'

class SessionKeys
  CURVE = 'secp521r1'

  def ephemeral
    OpenSSL::PKey::EC.new(CURVE).generate_key # expect: key-generation ECDSA
  end

  def agree(private_key, peer_point)
    private_key.dh_compute_key(peer_point) # expect: key-agreement ECDH
  end
end
