import crypto from 'node:crypto';

const CURVE = 'prime256v1';

export function startHandshake() {
  const ecdh = crypto.createECDH(CURVE); // expect: key-agreement ECDH
  const publicKey = ecdh.generateKeys('base64');
  return { ecdh, publicKey };
}

export function modernHandshake(peerPublicKey) {
  const { privateKey } = crypto.generateKeyPairSync('x25519'); // expect: key-generation X25519
  return crypto.diffieHellman({ privateKey, publicKey: peerPublicKey }); // expect: key-agreement X25519
}
