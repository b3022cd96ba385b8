const crypto = require('node:crypto');

const { RSA_PKCS1_OAEP_PADDING } = crypto.constants;

exports.encryptCardNumber = function encryptCardNumber(publicKeyPem, pan) {
  return crypto
    .publicEncrypt( // expect: encryption RSA
      { key: publicKeyPem, padding: RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
      Buffer.from(pan, 'utf8'),
    )
    .toString('base64');
};

exports.decryptCardNumber = (privateKeyPem, blob) =>
  crypto.privateDecrypt({ key: privateKeyPem, padding: RSA_PKCS1_OAEP_PADDING }, Buffer.from(blob, 'base64')); // expect: encryption RSA
