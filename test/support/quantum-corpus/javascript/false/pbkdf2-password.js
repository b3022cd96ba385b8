const { pbkdf2Sync, scryptSync, randomBytes, timingSafeEqual } = require('node:crypto');

function hashPassword(password) {
  const salt = randomBytes(16);
  const hash = scryptSync(password, salt, 64);
  return `${salt.toString('hex')}:${hash.toString('hex')}`;
}

function legacyHash(password, salt) {
  return pbkdf2Sync(password, salt, 100000, 64, 'sha512');
}

function same(a, b) {
  return timingSafeEqual(Buffer.from(a), Buffer.from(b));
}

module.exports = { hashPassword, legacyHash, same };
