'use strict';
const express = require('express');
const crypto = require('crypto');

const KEY_OPTIONS = {
  modulusLength: 2048,
  publicExponent: 0x10001,
  publicKeyEncoding: { type: 'spki', format: 'pem' },
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
};

const router = express.Router();

router.post('/tenants/:id/keys', async (req, res) => {
  const { publicKey } = crypto.generateKeyPairSync('rsa', KEY_OPTIONS); // expect: key-generation RSA
  await req.app.locals.keys.save(req.params.id, publicKey);
  res.status(201).json({ publicKey });
});

router.post('/tenants/:id/envelope', (req, res) => {
  const sealed = crypto.publicEncrypt(req.body.publicKey, Buffer.from(req.body.secret)); // expect: encryption RSA
  res.json({ sealed: sealed.toString('base64') });
});

module.exports = router;
