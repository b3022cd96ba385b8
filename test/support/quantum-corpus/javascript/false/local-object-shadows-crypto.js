const { createMockCrypto } = require('./test-doubles');

// A test double standing in for a hardware module; not node:crypto.
const crypto = createMockCrypto({ deterministic: true });

function fakeKeys() {
  return crypto.generateKeyPairSync('rsa', { modulusLength: 512 });
}

module.exports = { fakeKeys };
