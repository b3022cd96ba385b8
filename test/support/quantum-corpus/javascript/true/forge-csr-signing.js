const forge = require('node-forge');

const { pki } = forge;

function buildCsr(commonName) {
  const keys = pki.rsa.generateKeyPair({ bits: 2048, e: 0x10001 }); // expect: key-generation RSA
  const csr = pki.createCertificationRequest();
  csr.publicKey = keys.publicKey;
  csr.setSubject([{ name: 'commonName', value: commonName }]);
  csr.sign(keys.privateKey, forge.md.sha256.create()); // expect: signature RSA
  return { csr: pki.certificationRequestToPem(csr), key: pki.privateKeyToPem(keys.privateKey) };
}

function sealForPartner(partnerPem, secret) {
  const partnerKey = pki.publicKeyFromPem(partnerPem);
  return partnerKey.encrypt(secret, 'RSA-OAEP', { md: forge.md.sha256.create() }); // expect: encryption RSA
}

module.exports = { buildCsr, sealForPartner };
