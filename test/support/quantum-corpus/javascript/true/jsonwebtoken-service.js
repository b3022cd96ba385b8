const jwt = require('jsonwebtoken');
const fs = require('fs');

const signingKey = fs.readFileSync(process.env.SIGNING_KEY_PATH);
const SIGN_OPTIONS = { algorithm: 'ES384', expiresIn: '1h', issuer: 'billing' };

function issue(user) {
  return jwt.sign({ sub: user.id, roles: user.roles }, signingKey, SIGN_OPTIONS); // expect: signature ECDSA
}

function verify(token, publicKey) {
  return jwt.verify(token, publicKey, { algorithms: ['RS256', 'RS512'] }); // expect: signature RSA
}

module.exports = { issue, verify };
