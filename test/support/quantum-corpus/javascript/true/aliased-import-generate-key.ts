import { generateKeyPairSync as makeKeys, sign as signBytes } from 'node:crypto';

type DeviceKeys = { publicKey: string; privateKey: string };

export function provisionDevice(serial: string): DeviceKeys {
  const keys = makeKeys('ed25519', { // expect: key-generation EdDSA
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  console.log(`provisioned ${serial}`);
  return keys;
}

export function attest(privateKey: string, nonce: Buffer): Buffer {
  return signBytes(null, nonce, privateKey); // expect: signature EdDSA
}
