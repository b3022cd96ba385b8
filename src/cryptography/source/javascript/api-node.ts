/**
 * Node's `crypto` module and WebCrypto (`crypto.subtle`, `globalThis.crypto.subtle`,
 * `require('crypto').webcrypto.subtle`), as data: which call means which primitive and family,
 * and where the key type, key size and curve are written.
 */
import { cipherName, hashName, modpBits, type NameMeaning } from '../engine/names.js';
import {
  argValue,
  at,
  fixed,
  named,
  propertyValue,
  type Rule,
  type RuleContext,
  type RuleRead,
  symmetricFixed,
  symmetricNamed,
} from '../engine/rules.js';
import { namedChildren } from '../engine/syntax.js';
import { own, stringOf, type Value } from '../engine/values.js';
import type { SyntaxNode } from '../parser.js';
import type { PublicKeyAlgorithm } from '../types.js';

/** The key types of `generateKeyPair` and `KeyObject.asymmetricKeyType`. */
export function nodeKeyType(name: string): NameMeaning | undefined {
  switch (name.trim().toLowerCase()) {
    case 'rsa':
    case 'rsa-pss':
      return { algorithm: 'RSA' };
    case 'dsa':
      return { algorithm: 'DSA' };
    case 'ec':
      return { algorithm: 'ECDSA' };
    case 'ed25519':
      return { algorithm: 'EdDSA', curve: 'Ed25519' };
    case 'ed448':
      return { algorithm: 'EdDSA', curve: 'Ed448' };
    case 'x25519':
      return { algorithm: 'X25519' };
    case 'x448':
      return { algorithm: 'X448' };
    case 'dh':
      return { algorithm: 'DH' };
    case 'hmac':
      return { symmetric: { algorithm: 'HMAC', kind: 'mac' } };
    case 'aes':
      return { symmetric: { algorithm: 'AES', kind: 'block-cipher' } };
    default:
      return undefined;
  }
}

const WEBCRYPTO: Readonly<Record<string, NameMeaning>> = {
  'RSASSA-PKCS1-V1_5': { algorithm: 'RSA', primitive: 'signature' },
  'RSA-PSS': { algorithm: 'RSA', primitive: 'signature' },
  'RSA-OAEP': { algorithm: 'RSA', primitive: 'encryption' },
  ECDSA: { algorithm: 'ECDSA', primitive: 'signature' },
  ECDH: { algorithm: 'ECDH', primitive: 'key-agreement' },
  ED25519: { algorithm: 'EdDSA', primitive: 'signature', curve: 'Ed25519' },
  ED448: { algorithm: 'EdDSA', primitive: 'signature', curve: 'Ed448' },
  X25519: { algorithm: 'X25519', primitive: 'key-agreement' },
  X448: { algorithm: 'X448', primitive: 'key-agreement' },
  'AES-GCM': { symmetric: { algorithm: 'AES-GCM', kind: 'ae' } },
  'AES-CBC': { symmetric: { algorithm: 'AES-CBC', kind: 'block-cipher' } },
  'AES-CTR': { symmetric: { algorithm: 'AES-CTR', kind: 'block-cipher' } },
  'AES-KW': { symmetric: { algorithm: 'AES-KW', kind: 'block-cipher' } },
  HMAC: { symmetric: { algorithm: 'HMAC', kind: 'mac' } },
  PBKDF2: { symmetric: { algorithm: 'PBKDF2', kind: 'kdf' } },
  HKDF: { symmetric: { algorithm: 'HKDF', kind: 'kdf' } },
};

/** WebCrypto algorithm names (`RSA-OAEP`, `ECDSA`, `Ed25519`, `AES-GCM`, `SHA-256`). */
export function webCryptoAlgorithm(name: string): NameMeaning | undefined {
  const known = own(WEBCRYPTO, name.trim().toUpperCase());
  if (known) return known;
  const hash = hashName(name);
  return hash ? { symmetric: { algorithm: hash, kind: 'hash' } } : undefined;
}

function argumentsOf(call: SyntaxNode): SyntaxNode[] {
  const args = call.childForFieldName('arguments');
  return args ? namedChildren(args).filter((node) => node.type !== 'comment') : [];
}

/**
 * The family of a key the file shows: one destructured from `generateKeyPair(Sync)('ec')`, or a
 * `{ key, padding }` / `{ key, dsaEncoding }` signing option.
 */
export function keyFamily(
  value: Value | undefined,
  ctx: RuleContext,
): PublicKeyAlgorithm | undefined {
  if (!value) return undefined;
  if (value.kind === 'object') {
    const key = propertyValue(value, 'key', ctx);
    const family = key ? keyFamily(key, ctx) : undefined;
    if (family) return family;
    if (value.entries.has('padding') || value.entries.has('saltLength')) return 'RSA';
    return value.entries.has('dsaEncoding') ? 'ECDSA' : undefined;
  }
  if (value.kind !== 'api' || !/^crypto\.generateKeyPair(Sync)?\(\)/.test(value.path))
    return undefined;
  const producer = value.calls[0];
  const type = producer ? argumentsOf(producer)[0] : undefined;
  const name = type ? stringOf(ctx.value(type)) : undefined;
  return name ? nodeKeyType(name)?.algorithm : undefined;
}

/** `createSign('RSA-SHA256')`, `createSign('ecdsa-with-SHA256')`, or a bare hash name. */
const signerFromName: RuleRead = (site, ctx) => {
  const name = stringOf(argValue(site, ctx, at(0)))?.toLowerCase() ?? '';
  let algorithm: PublicKeyAlgorithm | undefined;
  if (/ecdsa/.test(name)) algorithm = 'ECDSA';
  else if (/rsa/.test(name)) algorithm = 'RSA';
  else if (/dsa/.test(name)) algorithm = 'DSA';
  if (algorithm) return [{ use: { primitive: 'signature', algorithm } }];
  return [{ use: { primitive: 'signature', algorithm: 'RSA', assumed: true } }];
};

/** `signer.sign(key)`: the key's family replaces the family `createSign` assumed. */
const signerKey: RuleRead = (site, ctx) => {
  const receiver = site.receiverValue;
  const producer = receiver?.kind === 'api' ? receiver.calls[0] : undefined;
  const algorithm = keyFamily(argValue(site, ctx, at(0)), ctx);
  return producer && algorithm ? [{ refine: producer, with: { algorithm } }] : [];
};

/** `crypto.sign(null, data, key)` is EdDSA unless the key says otherwise; with a hash, RSA. */
const oneShotSign: RuleRead = (site, ctx) => {
  const hash = argValue(site, ctx, at(0));
  const family = keyFamily(argValue(site, ctx, at(2)), ctx);
  const withoutHash = !hash || hash.kind === 'null';
  if (family) return [{ use: { primitive: 'signature', algorithm: family } }];
  const algorithm: PublicKeyAlgorithm = withoutHash ? 'EdDSA' : 'RSA';
  return [{ use: { primitive: 'signature', algorithm, assumed: true } }];
};

/** `createPrivateKey({ key, format: 'jwk' })` or `{ type: 'pkcs1' }` names the family. */
const keyObjectMaterial: RuleRead = (site, ctx) => {
  const options = argValue(site, ctx, at(0));
  if (options?.kind !== 'object') return [];
  const type = stringOf(propertyValue(options, 'type', ctx));
  const kty = stringOf(propertyValue(options, 'key.kty', ctx));
  const crv = stringOf(propertyValue(options, 'key.crv', ctx));
  let algorithm: PublicKeyAlgorithm | undefined;
  if (type === 'pkcs1' || kty === 'RSA') algorithm = 'RSA';
  else if (type === 'sec1' || kty === 'EC') algorithm = 'ECDSA';
  else if (kty === 'OKP')
    algorithm = crv?.startsWith('X') ? (crv === 'X448' ? 'X448' : 'X25519') : 'EdDSA';
  if (!algorithm) return [];
  return [{ use: { primitive: 'key-material', algorithm, ...(crv ? { curve: crv } : {}) } }];
};

const hashRule = symmetricNamed(at(0), (name) => {
  const hash = hashName(name);
  return hash ? { algorithm: hash, kind: 'hash' } : undefined;
});

const hmacRule = symmetricNamed(at(0), (name) => {
  const hash = hashName(name);
  return hash ? { algorithm: `HMAC-${hash}`, kind: 'mac' } : undefined;
});

function webCrypto(method: string, primitive: Parameters<typeof named>[0], index: number): Rule {
  return {
    path: `crypto.subtle.${method}`,
    read: named(primitive, at(index, 'name', true), webCryptoAlgorithm, {
      keySize: at(index, 'modulusLength'),
      curve: at(index, 'namedCurve'),
    }),
  };
}

function paths(names: readonly string[], read: RuleRead): Rule[] {
  return names.map((path) => ({ path, read }));
}

export const NODE_CRYPTO_RULES: readonly Rule[] = [
  ...paths(
    ['crypto.generateKeyPairSync', 'crypto.generateKeyPair'],
    named('key-generation', at(0), nodeKeyType, {
      keySize: [
        at(1, 'modulusLength'),
        at(1, 'primeLength'),
        { ...at(1, 'group'), read: groupBits },
      ],
      curve: at(1, 'namedCurve'),
    }),
  ),
  ...paths(
    ['crypto.generateKeySync', 'crypto.generateKey'],
    named('key-generation', at(0), nodeKeyType),
  ),
  { path: 'crypto.createECDH', read: fixed('key-agreement', 'ECDH', { curve: at(0) }) },
  { path: 'crypto.createDiffieHellman', read: fixed('key-agreement', 'DH', { keySize: at(0) }) },
  ...paths(
    ['crypto.createDiffieHellmanGroup', 'crypto.getDiffieHellman'],
    fixed('key-agreement', 'DH', { keySize: { ...at(0), read: groupBits } }),
  ),
  {
    path: 'crypto.diffieHellman',
    read: fixed('key-agreement', 'DH', {
      assumed: true,
      family: (site, ctx) => {
        const family = keyFamily(argValue(site, ctx, at(0, 'privateKey')), ctx);
        return family === 'ECDSA' ? 'ECDH' : family;
      },
    }),
  },
  ...paths(
    [
      'crypto.publicEncrypt',
      'crypto.privateDecrypt',
      'crypto.privateEncrypt',
      'crypto.publicDecrypt',
    ],
    fixed('encryption', 'RSA'),
  ),
  ...paths(['crypto.createSign', 'crypto.createVerify'], signerFromName),
  ...paths(['crypto.createSign().sign', 'crypto.createVerify().verify'], signerKey),
  ...paths(['crypto.sign', 'crypto.verify'], oneShotSign),
  ...paths(['crypto.createPrivateKey', 'crypto.createPublicKey'], keyObjectMaterial),
  ...paths(['crypto.createHash', 'crypto.hash'], hashRule),
  { path: 'crypto.createHmac', read: hmacRule },
  ...paths(
    [
      'crypto.createCipheriv',
      'crypto.createDecipheriv',
      'crypto.createCipher',
      'crypto.createDecipher',
    ],
    symmetricNamed(at(0), cipherName),
  ),
  ...paths(['crypto.pbkdf2', 'crypto.pbkdf2Sync'], symmetricFixed('PBKDF2', 'kdf')),
  ...paths(['crypto.scrypt', 'crypto.scryptSync'], symmetricFixed('scrypt', 'kdf')),
  ...paths(['crypto.hkdf', 'crypto.hkdfSync'], symmetricFixed('HKDF', 'kdf')),
  webCrypto('generateKey', 'key-generation', 0),
  webCrypto('importKey', 'key-material', 2),
  webCrypto('unwrapKey', 'encryption', 3),
  webCrypto('wrapKey', 'encryption', 3),
  webCrypto('sign', 'signature', 0),
  webCrypto('verify', 'signature', 0),
  webCrypto('encrypt', 'encryption', 0),
  webCrypto('decrypt', 'encryption', 0),
  webCrypto('deriveKey', 'key-agreement', 0),
  webCrypto('deriveBits', 'key-agreement', 0),
  // `subtle.digest` takes only hashes: it records them (CBOM algorithms, no finding).
  {
    ...webCrypto('digest', 'key-agreement', 0),
    read: webCrypto('digest', 'key-agreement', 0).read,
  },
];

function groupBits(value: Value): number | undefined {
  const name = stringOf(value);
  return name === undefined ? undefined : modpBits(name);
}
