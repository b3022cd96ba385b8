const { KEYUTIL, KJUR } = require('jsrsasign');

const HEADER = { alg: 'ES256', typ: 'JWT' };

function issueAssertion(claims) {
  const pair = KEYUTIL.generateKeypair('EC', 'secp256r1'); // expect: key-generation ECDSA
  const jws = KJUR.jws.JWS.sign(null, HEADER, claims, pair.prvKeyObj); // expect: signature ECDSA
  return { jws, publicKey: KEYUTIL.getPEM(pair.pubKeyObj) };
}

function signLegacy(pem, text) {
  const sig = new KJUR.crypto.Signature({ alg: 'SHA256withRSA' }); // expect: signature RSA
  sig.init(pem);
  sig.updateString(text);
  return sig.sign();
}

module.exports = { issueAssertion, signLegacy };
