const crypto = require('crypto');

function etag(body) {
  return crypto.createHash('sha256').update(body).digest('hex');
}

function webhookSignature(secret, payload) {
  return crypto.createHmac('sha256', secret).update(payload).digest('base64');
}

function legacyChecksum(data) {
  return crypto.createHash('md5').update(data).digest('hex');
}

module.exports = { etag, webhookSignature, legacyChecksum };
