const { createSign, createVerify, generateKeyPairSync } = require('crypto');

const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'secp384r1' }); // expect: key-generation ECDSA

function signManifest(manifest) {
  const signer = createSign('SHA384'); // expect: signature ECDSA
  signer.update(JSON.stringify(manifest));
  signer.end();
  return signer.sign(privateKey, 'base64');
}

function verifyVendorManifest(manifest, signature, vendorPem) {
  const verifier = createVerify('RSA-SHA256'); // expect: signature RSA
  verifier.update(JSON.stringify(manifest));
  return verifier.verify(vendorPem, signature, 'base64');
}

module.exports = { signManifest, verifyVendorManifest, publicKey };
