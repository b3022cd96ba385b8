/**
 * pyca/cryptography (`cryptography.hazmat.primitives...`, shortened to `pyca.` by the
 * evaluator), hashlib and hmac, as data. A key's `sign`, `verify`, `encrypt`, `decrypt` and
 * `exchange` are findings when the key came from a generator in the file, or when the padding
 * or algorithm object passed says the family (`padding.OAEP`, `ec.ECDSA`, `ec.ECDH`).
 */
import { hashName } from '../engine/names.js';
import {
  argValue,
  fixed,
  kw,
  type Rule,
  type RuleRead,
  type Site,
  symmetricFixed,
  symmetricNamed,
} from '../engine/rules.js';
import { lastName, type Value } from '../engine/values.js';
import type { PublicKeyAlgorithm } from '../types.js';

function paths(names: readonly string[], read: RuleRead): Rule[] {
  return names.map((path) => ({ path, read }));
}

function typed(methods: readonly string[], path: RegExp, read: RuleRead): Rule[] {
  return methods.map((method) => ({ path, method, read }));
}

function argumentValues(site: Site, value: (node: Site['node']) => Value): Value[] {
  return [...site.args, ...site.keywords.values()].map((node) => value(node));
}

/** The family an argument object says: `padding.PSS()` is RSA, `ec.ECDSA()` is ECDSA. */
type Operation = 'signature' | 'encryption' | 'key-agreement';

const ARGUMENT_FAMILY: Readonly<Record<Operation, ReadonlyArray<[RegExp, PublicKeyAlgorithm]>>> = {
  signature: [
    [/^pyca\.padding\.(PSS|PKCS1v15)\(\)$/, 'RSA'],
    [/^pyca\.ec\.ECDSA\(\)$/, 'ECDSA'],
  ],
  encryption: [[/^pyca\.padding\.(OAEP|PKCS1v15)\(\)$/, 'RSA']],
  'key-agreement': [[/^pyca\.ec\.ECDH\(\)$/, 'ECDH']],
};

function byArgument(primitive: Operation): RuleRead {
  return (site, ctx) => {
    for (const argument of argumentValues(site, ctx.value)) {
      if (argument.kind !== 'api') continue;
      const hit = ARGUMENT_FAMILY[primitive].find(([pattern]) => pattern.test(argument.path));
      if (hit) return [{ use: { primitive, algorithm: hit[1] } }];
    }
    return [];
  };
}

/** `Cipher(algorithms.AES(key), modes.GCM(iv))` → AES-GCM. */
const cipherObject: RuleRead = (site, ctx) => {
  const algorithm = argValue(site, ctx, kw('algorithm', 0));
  const mode = argValue(site, ctx, kw('mode', 1));
  if (algorithm?.kind !== 'api') return [];
  const name = lastName(algorithm.path).replace(/^TripleDES$/, '3DES');
  const modeName = mode?.kind === 'api' ? lastName(mode.path) : undefined;
  const kind =
    modeName && /GCM|CCM|OCB|SIV|EAX/.test(modeName)
      ? 'ae'
      : /ChaCha20/.test(name)
        ? 'stream-cipher'
        : 'block-cipher';
  return [{ symmetric: { algorithm: modeName ? `${name}-${modeName}` : name, kind } }];
};

const HASH_CLASSES = [
  'SHA1',
  'SHA224',
  'SHA256',
  'SHA384',
  'SHA512',
  'SHA512_224',
  'SHA512_256',
  'SHA3_224',
  'SHA3_256',
  'SHA3_384',
  'SHA3_512',
  'SHAKE128',
  'SHAKE256',
  'MD5',
  'BLAKE2b',
  'BLAKE2s',
  'SM3',
];

const hashByName: RuleRead = (site) => {
  const hash = hashName(lastName(site.path));
  return hash ? [{ symmetric: { algorithm: hash, kind: 'hash' } }] : [];
};

/** `hmac.new(key, msg, hashlib.sha256)` or `digestmod="sha256"`. */
const hmacNew: RuleRead = (site, ctx) => {
  const digest = argValue(site, ctx, kw('digestmod', 2)) ?? argValue(site, ctx, kw('digest', 2));
  const name =
    digest?.kind === 'api'
      ? lastName(digest.path)
      : digest?.kind === 'string'
        ? digest.value
        : undefined;
  const hash = name ? hashName(name) : undefined;
  return [{ symmetric: { algorithm: hash ? `HMAC-${hash}` : 'HMAC', kind: 'mac' } }];
};

const PYCA_KEYS: Rule[] = [
  {
    path: 'pyca.rsa.generate_private_key',
    read: fixed('key-generation', 'RSA', { keySize: kw('key_size', 1) }),
  },
  ...paths(
    ['pyca.dsa.generate_private_key', 'pyca.dsa.generate_parameters'],
    fixed('key-generation', 'DSA', { keySize: kw('key_size', 0) }),
  ),
  {
    path: 'pyca.ec.generate_private_key',
    read: fixed('key-generation', 'ECDSA', { curve: kw('curve', 0) }),
  },
  {
    path: 'pyca.ec.derive_private_key',
    read: fixed('key-material', 'ECDSA', { curve: kw('curve', 1) }),
  },
  {
    path: 'pyca.dh.generate_parameters',
    read: fixed('key-generation', 'DH', { keySize: kw('key_size', 1) }),
  },
  { path: 'pyca.x25519.X25519PrivateKey.generate', read: fixed('key-generation', 'X25519') },
  { path: 'pyca.x448.X448PrivateKey.generate', read: fixed('key-generation', 'X448') },
  {
    path: 'pyca.ed25519.Ed25519PrivateKey.generate',
    read: fixed('key-generation', 'EdDSA', { curve: 'Ed25519' }),
  },
  {
    path: 'pyca.ed448.Ed448PrivateKey.generate',
    read: fixed('key-generation', 'EdDSA', { curve: 'Ed448' }),
  },
  ...paths(
    [
      'pyca.x25519.X25519PrivateKey.from_private_bytes',
      'pyca.x25519.X25519PublicKey.from_public_bytes',
    ],
    fixed('key-material', 'X25519'),
  ),
  ...paths(
    ['pyca.x448.X448PrivateKey.from_private_bytes', 'pyca.x448.X448PublicKey.from_public_bytes'],
    fixed('key-material', 'X448'),
  ),
  ...paths(
    [
      'pyca.ed25519.Ed25519PrivateKey.from_private_bytes',
      'pyca.ed25519.Ed25519PublicKey.from_public_bytes',
    ],
    fixed('key-material', 'EdDSA', { curve: 'Ed25519' }),
  ),
  ...paths(
    ['pyca.rsa.RSAPublicNumbers', 'pyca.rsa.RSAPrivateNumbers'],
    fixed('key-material', 'RSA'),
  ),
  {
    path: 'pyca.ec.EllipticCurvePublicKey.from_encoded_point',
    read: fixed('key-material', 'ECDSA', { curve: kw('curve', 0) }),
  },
  {
    path: 'pyca.ec.EllipticCurvePublicNumbers',
    read: fixed('key-material', 'ECDSA', { curve: kw('curve', 2) }),
  },
  ...paths(
    ['pyca.dsa.DSAParameterNumbers', 'pyca.dsa.DSAPublicNumbers'],
    fixed('key-material', 'DSA'),
  ),
  ...paths(['pyca.dh.DHParameterNumbers', 'pyca.dh.DHPublicNumbers'], fixed('key-material', 'DH')),
];

const PYCA_OPERATIONS: Rule[] = [
  ...typed(['sign', 'verify'], /./, byArgument('signature')),
  ...typed(['encrypt', 'decrypt'], /./, byArgument('encryption')),
  ...typed(['exchange'], /./, byArgument('key-agreement')),
  ...typed(['sign', 'verify'], /^pyca\.rsa\..*\(\)\.(sign|verify)$/, fixed('signature', 'RSA')),
  ...typed(['encrypt', 'decrypt'], /^pyca\.rsa\..*\(\)\.(en|de)crypt$/, fixed('encryption', 'RSA')),
  ...typed(['sign', 'verify'], /^pyca\.dsa\..*\(\)\.(sign|verify)$/, fixed('signature', 'DSA')),
  ...typed(['sign', 'verify'], /^pyca\.ec\..*\(\)\.(sign|verify)$/, fixed('signature', 'ECDSA')),
  ...typed(
    ['sign', 'verify'],
    /^pyca\.ed25519\..*\(\)\.(sign|verify)$/,
    fixed('signature', 'EdDSA', { curve: 'Ed25519' }),
  ),
  ...typed(
    ['sign', 'verify'],
    /^pyca\.ed448\..*\(\)\.(sign|verify)$/,
    fixed('signature', 'EdDSA', { curve: 'Ed448' }),
  ),
  ...typed(['exchange'], /^pyca\.x25519\..*\(\)\.exchange$/, fixed('key-agreement', 'X25519')),
  ...typed(['exchange'], /^pyca\.x448\..*\(\)\.exchange$/, fixed('key-agreement', 'X448')),
  ...typed(['exchange'], /^pyca\.dh\..*\(\)\.exchange$/, fixed('key-agreement', 'DH')),
];

const PYCA_SYMMETRIC: Rule[] = [
  ...paths(
    HASH_CLASSES.map((name) => `pyca.hashes.${name}`),
    hashByName,
  ),
  { path: 'pyca.ciphers.Cipher', read: cipherObject },
  { path: 'pyca.ciphers.aead.AESGCM', read: symmetricFixed('AES-GCM', 'ae') },
  { path: 'pyca.ciphers.aead.AESCCM', read: symmetricFixed('AES-CCM', 'ae') },
  { path: 'pyca.ciphers.aead.AESSIV', read: symmetricFixed('AES-SIV', 'ae') },
  { path: 'pyca.ciphers.aead.AESOCB3', read: symmetricFixed('AES-OCB3', 'ae') },
  { path: 'pyca.ciphers.aead.ChaCha20Poly1305', read: symmetricFixed('ChaCha20-Poly1305', 'ae') },
  { path: 'pyca.fernet.Fernet', read: symmetricFixed('AES-128-CBC-HMAC-SHA256', 'ae') },
  { path: 'pyca.kdf.pbkdf2.PBKDF2HMAC', read: symmetricFixed('PBKDF2', 'kdf') },
  { path: 'pyca.kdf.hkdf.HKDF', read: symmetricFixed('HKDF', 'kdf') },
  { path: 'pyca.kdf.scrypt.Scrypt', read: symmetricFixed('scrypt', 'kdf') },
  { path: 'pyca.hmac.HMAC', read: symmetricFixed('HMAC', 'mac') },
];

const HASHLIB: Rule[] = [
  ...paths(
    [
      'md5',
      'sha1',
      'sha224',
      'sha256',
      'sha384',
      'sha512',
      'sha3_256',
      'sha3_384',
      'sha3_512',
      'blake2b',
      'blake2s',
    ].map((name) => `hashlib.${name}`),
    hashByName,
  ),
  {
    path: 'hashlib.new',
    read: symmetricNamed(kw('name', 0), (name) => {
      const hash = hashName(name);
      return hash ? { algorithm: hash, kind: 'hash' } : undefined;
    }),
  },
  { path: 'hashlib.pbkdf2_hmac', read: symmetricFixed('PBKDF2', 'kdf') },
  { path: 'hashlib.scrypt', read: symmetricFixed('scrypt', 'kdf') },
  ...paths(['hmac.new', 'hmac.digest', 'hmac.HMAC'], hmacNew),
];

export const PYCA_RULES: readonly Rule[] = [
  ...PYCA_KEYS,
  ...PYCA_OPERATIONS,
  ...PYCA_SYMMETRIC,
  ...HASHLIB,
];
