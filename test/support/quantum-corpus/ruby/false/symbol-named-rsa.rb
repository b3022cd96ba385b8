class KeyRecord < ApplicationRecord
  enum kind: { rsa: 0, ecdsa: 1, ed25519: 2 }

  scope :legacy, -> { where(kind: :rsa).where('bits < ?', 2048) }

  def label
    kind == 'rsa' ? 'RSA' : kind.upcase
  end
end
