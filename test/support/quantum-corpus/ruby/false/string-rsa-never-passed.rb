KEY_TYPES = {
  'RSA' => 'RSA 2048 (legacy)',
  'EC' => 'prime256v1',
  'OKP' => 'Ed25519'
}.freeze

def describe(kty)
  label = KEY_TYPES.fetch(kty, 'unknown')
  "#{kty}: #{label}"
end

puts describe('RSA')
