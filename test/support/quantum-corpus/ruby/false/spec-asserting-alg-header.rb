RSpec.describe TokenIssuer do
  it 'sets the RS256 header' do
    token = described_class.new.issue(create(:user))
    header = JSON.parse(Base64.urlsafe_decode64(token.split('.').first))
    expect(header['alg']).to eq('RS256')
  end
end
