const crypto = require('crypto');

function legacyDsaKey() {
  return crypto.generateKeyPairSync( // expect: key-generation DSA
    'dsa', // the first argument names the key type
    {
      ...DSA_DEFAULTS,
    },
  );
}

function legacySignature(data) {
  const { privateKey } = legacyDsaKey();
  return crypto.sign('sha1', data, { key: privateKey, dsaEncoding: 'der' }); // expect: signature DSA
}

const DSA_DEFAULTS = { modulusLength: 1024, divisorLength: 160 };

module.exports = { legacyDsaKey, legacySignature };
