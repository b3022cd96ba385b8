const jwt = require('jsonwebtoken');

const SECRET = process.env.SESSION_SECRET;

function session(userId) {
  return jwt.sign({ sub: userId }, SECRET, { algorithm: 'HS256', expiresIn: '1d' });
}

function check(token) {
  return jwt.verify(token, SECRET, { algorithms: ['HS256'] });
}

function peek(token) {
  return jwt.decode(token, { complete: true });
}

module.exports = { session, check, peek };
