require 'rails_helper'

RSpec.describe ReceiptVerifier do
  let(:key) { OpenSSL::PKey::RSA.new(512) } # expect: key-generation RSA
  let(:signature) { key.sign('SHA256', 'receipt') } # expect: signature RSA

  it 'accepts a valid signature' do
    expect(described_class.new(key.public_key).valid?('receipt', signature)).to be(true)
  end

  it 'rejects a forged one' do
    forged = OpenSSL::PKey::EC.generate('prime256v1').sign('SHA256', 'receipt') # expect: key-generation ECDSA; signature ECDSA
    expect(described_class.new(key.public_key).valid?('receipt', forged)).to be(false)
  end
end
