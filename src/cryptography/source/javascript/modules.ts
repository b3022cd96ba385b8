/**
 * The npm modules the JavaScript rules know, by the canonical name the API tables use, and
 * the globals a browser or Node script may use without importing anything.
 */
import { api, member, own, type Value } from '../engine/values.js';

const MODULES: Readonly<Record<string, string>> = {
  crypto: 'crypto',
  'node:crypto': 'crypto',
  'node-forge': 'forge',
  'node-forge/lib/forge': 'forge',
  jsrsasign: 'jsrsasign',
  elliptic: 'elliptic',
  jsonwebtoken: 'jsonwebtoken',
  jose: 'jose',
  '@nestjs/jwt': 'nestjs-jwt',
  'express-jwt': 'express-jwt',
  'passport-jwt': 'passport-jwt',
  tweetnacl: 'nacl',
  'tweetnacl-ts': 'nacl',
  '@noble/curves/secp256k1': 'noble',
  '@noble/curves/p256': 'noble',
  '@noble/curves/nist': 'noble',
  '@noble/curves/p384': 'noble',
  '@noble/curves/p521': 'noble',
  '@noble/curves/ed25519': 'noble',
  '@noble/curves/ed448': 'noble',
  '@noble/ed25519': 'noble-ed25519',
  '@noble/secp256k1': 'noble-secp256k1',
};

/** The canonical name of an imported module; modules no rule reads keep a `module:` prefix. */
export function canonicalModule(source: string): string {
  const known = own(MODULES, source) ?? own(MODULES, source.replace(/\.js$/, ''));
  return known ?? `module:${source}`;
}

/** Names a script may use unbound. `globalThis.crypto` and `window.crypto` are WebCrypto. */
export const GLOBALS: Readonly<Record<string, string>> = {
  crypto: 'crypto',
  globalThis: '',
  window: '',
  self: '',
  global: '',
  KEYUTIL: 'jsrsasign.KEYUTIL',
  KJUR: 'jsrsasign.KJUR',
  RSAKey: 'jsrsasign.RSAKey',
  forge: 'forge',
  JSON: 'JSON',
  Object: 'Object',
  Number: 'Number',
  String: 'String',
  parseInt: 'parseInt',
};

/** Paths that are one API under two names (`crypto.webcrypto` is `crypto`, `forge.rsa`). */
const SAME: Readonly<Record<string, string>> = {
  'crypto.webcrypto': 'crypto',
  'forge.rsa': 'forge.pki.rsa',
  'forge.ed25519': 'forge.pki.ed25519',
  'forge.default': 'forge',
  'jsonwebtoken.default': 'jsonwebtoken',
  'elliptic.default': 'elliptic',
  'jsrsasign.default': 'jsrsasign',
  'crypto.default': 'crypto',
};

export function memberPath(of: Value, name: string): Value {
  const next = member(of, name);
  if (next.kind !== 'api') return next;
  const same = own(SAME, next.path);
  return same === undefined ? next : api(same, next.calls);
}
