import { generateKeyPairSync } from 'node:crypto';

const COMPACT = process.env.COMPACT_KEYS === '1';

export function clientKeys() {
  return generateKeyPairSync(COMPACT ? 'ec' : 'rsa', COMPACT ? { namedCurve: 'P-256' } : { modulusLength: 3072 }); // expect: key-generation ECDSA; key-generation RSA
}

function makeKeyPair(type, options) {
  return generateKeyPairSync(type, options); // expect: key-generation DSA; key-generation EdDSA
}

export const archiveKeys = makeKeyPair('dsa', { modulusLength: 2048 });
export const deviceKeys = makeKeyPair('ed25519');
