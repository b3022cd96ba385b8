require 'net/http'

http = Net::HTTP.new('api.example.com', 443)
http.use_ssl = true
http.verify_mode = OpenSSL::SSL::VERIFY_PEER
http.ciphers = 'ECDHE-RSA-AES256-GCM-SHA384'
http.min_version = OpenSSL::SSL::TLS1_2_VERSION
response = http.get('/health')
puts response.code
