const fs = require('fs');
const path = require('path');

const rsaKeyPath = path.join(__dirname, 'keys', 'rsa_private.pem');
const ecdsaCertPath = path.join(__dirname, 'keys', 'ecdsa_cert.pem');

function loadRsaKey() {
  return fs.readFileSync(rsaKeyPath, 'utf8');
}

function hasEcdsaCert() {
  return fs.existsSync(ecdsaCertPath);
}

module.exports = { loadRsaKey, hasEcdsaCert, rsaKeyPath };
