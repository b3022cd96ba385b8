require 'sinatra'
require 'openssl'
require 'json'

SIGNING_KEY = OpenSSL::PKey::EC.generate('prime256v1') # expect: key-generation ECDSA

post '/sign' do
  body = request.body.read
  sig = SIGNING_KEY.sign('SHA256', body) # expect: signature ECDSA
  { signature: [sig].pack('m0') }.to_json
end
