class Contract < ApplicationRecord
  def sign(signer)
    update!(signed_by: signer.name, signed_at: Time.current)
  end

  def verify
    signed_by.present?
  end
end

contract = Contract.find(1)
contract.sign(current_user)
contract.verify
