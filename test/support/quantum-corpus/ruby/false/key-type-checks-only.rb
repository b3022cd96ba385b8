class KeyInspector
  def describe(key)
    case key
    when OpenSSL::PKey::RSA then "RSA #{key.n.num_bits}"
    when OpenSSL::PKey::EC then "EC #{key.group.curve_name}"
    else 'other'
    end
  rescue OpenSSL::PKey::PKeyError => e
    "unreadable: #{e.message}"
  end

  def rsa?(key)
    key.is_a?(OpenSSL::PKey::RSA)
  end
end
