const { subtle } = require('crypto').webcrypto;

async function importPartnerKey(jwk) {
  return subtle.importKey('jwk', jwk, { name: 'ECDSA', namedCurve: 'P-521' }, false, ['verify']); // expect: key-material ECDSA
}

async function checkPartnerSignature(key, signature, data) {
  return subtle.verify({ name: 'ECDSA', hash: 'SHA-512' }, key, signature, data); // expect: signature ECDSA
}

module.exports = { importPartnerKey, checkPartnerSignature };
