/**
 * The Rust tables: call rules (api-calls.ts), methods on key objects, library constants
 * (ring's algorithm statics, jsonwebtoken's Algorithm, openssl's Nid), and key types.
 */
import { PathTable } from '../engine/path-table.js';
import type { ApiTables, KeyType, KnownValue, MethodRule } from '../engine/rules.js';
import { methodsByName } from '../engine/rules.js';
import type { PublicKeyAlgorithm } from '../types.js';
import { EC_CRATES, RUST_CALLS } from './api-calls.js';

const SIGNING: PublicKeyAlgorithm[] = ['RSA', 'ECDSA', 'DSA', 'EdDSA'];

function methods(names: string[], fields: Omit<MethodRule, 'method'>): MethodRule[] {
  return names.map((method) => ({ method, ...fields }));
}

const METHODS: MethodRule[] = [
  ...methods(
    [
      'sign',
      'sign_with_rng',
      'try_sign',
      'try_sign_with_rng',
      'sign_digest',
      'sign_prehash',
      'sign_recoverable',
      'sign_digest_recoverable',
      'sign_prehash_recoverable',
      'verify',
      'verify_strict',
      'verify_digest',
      'verify_prehash',
      'sign_oneshot_to_vec',
      'sign_to_vec',
    ],
    { primitive: 'signature', families: SIGNING },
  ),
  ...methods(['encrypt', 'decrypt', 'decrypt_blinded'], {
    primitive: 'encryption',
    families: ['RSA'],
  }),
  ...methods(['public_encrypt', 'private_decrypt'], {
    primitive: 'encryption',
    algorithm: 'RSA',
    anyReceiver: true,
  }),
  ...methods(['private_encrypt', 'public_decrypt'], {
    primitive: 'signature',
    algorithm: 'RSA',
    anyReceiver: true,
  }),
  ...methods(['diffie_hellman', 'compute_key', 'derive'], {
    primitive: 'key-agreement',
    families: ['ECDH', 'DH', 'X25519', 'X448'],
  }),
  ...methods(['to_public_key', 'verifying_key', 'public_key', 'compute_public_key'], {
    returnsKey: true,
  }),
];

/** ring's signature algorithm statics. */
function ringSignatures(): KnownValue[] {
  const values: KnownValue[] = [];
  const signature = (name: string, algorithm: PublicKeyAlgorithm, curve?: string) =>
    values.push({
      path: `ring.signature.${name}`,
      bare: 2,
      algorithm,
      curve,
      standalone: 'signature',
    });
  for (const [size, curve] of [
    ['P256_SHA256', 'P-256'],
    ['P256_SHA384', 'P-256'],
    ['P384_SHA256', 'P-384'],
    ['P384_SHA384', 'P-384'],
  ] as const) {
    for (const form of ['ASN1', 'FIXED', 'ASN1_SIGNING', 'FIXED_SIGNING'])
      signature(`ECDSA_${size}_${form}`, 'ECDSA', curve);
  }
  for (const scheme of [
    'RSA_PKCS1_SHA256',
    'RSA_PKCS1_SHA384',
    'RSA_PKCS1_SHA512',
    'RSA_PSS_SHA256',
    'RSA_PSS_SHA384',
    'RSA_PSS_SHA512',
    'RSA_PKCS1_2048_8192_SHA256',
    'RSA_PKCS1_2048_8192_SHA384',
    'RSA_PKCS1_2048_8192_SHA512',
    'RSA_PKCS1_3072_8192_SHA384',
    'RSA_PSS_2048_8192_SHA256',
    'RSA_PSS_2048_8192_SHA384',
    'RSA_PSS_2048_8192_SHA512',
    'RSA_PKCS1_1024_8192_SHA1_FOR_LEGACY_USE_ONLY',
    'RSA_PKCS1_2048_8192_SHA1_FOR_LEGACY_USE_ONLY',
  ]) {
    signature(scheme, 'RSA');
  }
  signature('ED25519', 'EdDSA', 'Ed25519');
  return values;
}

/** ring's agreement, digest, HMAC and AEAD algorithm statics. */
function ringOthers(): KnownValue[] {
  const values: KnownValue[] = [];
  values.push(
    {
      path: 'ring.agreement.X25519',
      bare: 2,
      algorithm: 'X25519',
      curve: 'X25519',
      standalone: 'key-agreement',
    },
    {
      path: 'ring.agreement.ECDH_P256',
      bare: 2,
      algorithm: 'ECDH',
      curve: 'P-256',
      standalone: 'key-agreement',
    },
    {
      path: 'ring.agreement.ECDH_P384',
      bare: 2,
      algorithm: 'ECDH',
      curve: 'P-384',
      standalone: 'key-agreement',
    },
  );
  for (const [name, algorithm] of [
    ['SHA1_FOR_LEGACY_USE_ONLY', 'SHA-1'],
    ['SHA256', 'SHA-256'],
    ['SHA384', 'SHA-384'],
    ['SHA512', 'SHA-512'],
  ]) {
    values.push({
      path: `ring.digest.${name}`,
      bare: 2,
      symmetric: { algorithm: algorithm ?? '', kind: 'hash' },
    });
    values.push({
      path: `ring.hmac.HMAC_${name}`,
      bare: 2,
      symmetric: { algorithm: `HMAC-${(algorithm ?? '').replace('-', '')}`, kind: 'mac' },
    });
  }
  for (const [name, algorithm] of [
    ['AES_128_GCM', 'AES-128-GCM'],
    ['AES_256_GCM', 'AES-256-GCM'],
    ['CHACHA20_POLY1305', 'ChaCha20-Poly1305'],
  ]) {
    values.push({
      path: `ring.aead.${name}`,
      bare: 2,
      symmetric: { algorithm: algorithm ?? '', kind: 'ae' },
    });
  }
  return values;
}

function knownOther(): KnownValue[] {
  const values: KnownValue[] = [];
  for (const alg of ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512']) {
    values.push({
      path: `jsonwebtoken.Algorithm.${alg}`,
      bare: 2,
      algorithm: 'RSA',
      standalone: 'signature',
    });
  }
  values.push(
    {
      path: 'jsonwebtoken.Algorithm.ES256',
      bare: 2,
      algorithm: 'ECDSA',
      curve: 'P-256',
      standalone: 'signature',
    },
    {
      path: 'jsonwebtoken.Algorithm.ES384',
      bare: 2,
      algorithm: 'ECDSA',
      curve: 'P-384',
      standalone: 'signature',
    },
    {
      path: 'jsonwebtoken.Algorithm.EdDSA',
      bare: 2,
      algorithm: 'EdDSA',
      curve: 'Ed25519',
      standalone: 'signature',
    },
    { path: 'rsa.Pkcs1v15Encrypt', bare: 1, algorithm: 'RSA', hint: 'encryption' },
  );
  for (const alg of ['HS256', 'HS384', 'HS512']) {
    values.push({
      path: `jsonwebtoken.Algorithm.${alg}`,
      bare: 2,
      symmetric: { algorithm: `HMAC-SHA${alg.slice(2)}`, kind: 'mac' },
    });
  }
  const nids: [string, string][] = [
    ['X9_62_PRIME256V1', 'P-256'],
    ['SECP384R1', 'P-384'],
    ['SECP521R1', 'P-521'],
    ['SECP256K1', 'secp256k1'],
    ['X9_62_PRIME192V1', 'P-192'],
    ['SECP224R1', 'P-224'],
    ['BRAINPOOL_P256R1', 'brainpoolP256r1'],
  ];
  for (const [nid, curve] of nids) values.push({ path: `openssl.nid.Nid.${nid}`, bare: 2, curve });
  return values;
}

const KNOWN: KnownValue[] = [...ringSignatures(), ...ringOthers(), ...knownOther()];

function keyTypes(): KeyType[] {
  const types: KeyType[] = [
    { path: 'rsa.RsaPrivateKey', bare: 1, algorithm: 'RSA' },
    { path: 'rsa.RsaPublicKey', bare: 1, algorithm: 'RSA' },
    { path: 'rsa.pkcs1v15.SigningKey', algorithm: 'RSA' },
    { path: 'rsa.pkcs1v15.VerifyingKey', algorithm: 'RSA' },
    { path: 'rsa.pss.SigningKey', algorithm: 'RSA' },
    { path: 'ring.signature.EcdsaKeyPair', bare: 1, algorithm: 'ECDSA' },
    { path: 'ring.signature.Ed25519KeyPair', bare: 1, algorithm: 'EdDSA', curve: 'Ed25519' },
    { path: 'ring.signature.RsaKeyPair', bare: 1, algorithm: 'RSA' },
    { path: 'ed25519_dalek.SigningKey', algorithm: 'EdDSA', curve: 'Ed25519' },
    { path: 'ed25519_dalek.VerifyingKey', algorithm: 'EdDSA', curve: 'Ed25519' },
    { path: 'ed25519_dalek.Keypair', algorithm: 'EdDSA', curve: 'Ed25519' },
    { path: 'x25519_dalek.StaticSecret', algorithm: 'X25519', curve: 'X25519' },
    { path: 'x25519_dalek.EphemeralSecret', algorithm: 'X25519', curve: 'X25519' },
    { path: 'openssl.rsa.Rsa', algorithm: 'RSA' },
    { path: 'openssl.ec.EcKey', algorithm: 'ECDSA' },
  ];
  for (const [crate, curve] of EC_CRATES) {
    types.push({ path: `${crate}.ecdsa.SigningKey`, algorithm: 'ECDSA', curve });
    types.push({ path: `${crate}.ecdsa.VerifyingKey`, algorithm: 'ECDSA', curve });
    types.push({ path: `${crate}.SecretKey`, algorithm: 'ECDSA', curve });
    types.push({ path: `${crate}.ecdh.EphemeralSecret`, algorithm: 'ECDH', curve });
  }
  return types;
}

export const RUST_TABLES: ApiTables = {
  calls: new PathTable(RUST_CALLS),
  methods: methodsByName(METHODS),
  known: new PathTable(KNOWN),
  types: new PathTable(keyTypes()),
  passthrough: new Set([
    'unwrap',
    'expect',
    'clone',
    'as_ref',
    'to_owned',
    'borrow',
    'map_err',
    'context',
    'with_context',
    'unwrap_or_else',
  ]),
};

/**
 * Words at least one of which a file must contain for the detector to find anything: the
 * crate names (every path above starts with one, and a `use` names it) and the few names
 * found without a `use` (`Pkcs1v15Encrypt`, `public_encrypt`, `Algorithm::RS256`).
 */
export const RUST_KEYWORDS: readonly string[] = [
  ...new Set(
    [...RUST_CALLS, ...KNOWN, ...keyTypes()].map((entry) => `${entry.path.split('.')[0] ?? ''}::`),
  ),
  ...RUST_CALLS.filter((entry) => entry.bare !== undefined).map(
    (entry) => entry.path.split('.').at(-2) ?? '',
  ),
  ...KNOWN.map((entry) => entry.path.split('.').at(entry.bare === 1 ? -1 : -2) ?? ''),
  ...METHODS.filter((entry) => entry.anyReceiver).map((entry) => entry.method),
];
