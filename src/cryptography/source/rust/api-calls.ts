/**
 * The Rust crates' functions, associated functions and constructors the detector knows, as
 * data: rsa, the RustCrypto EC crates (p256, p384, p521, k256, ecdsa), ring, ed25519-dalek,
 * x25519-dalek, openssl, jsonwebtoken, and the hashes and AEADs recorded as algorithms. Paths
 * are crate-qualified, as `use` declarations expand them.
 */
import type { ApiRule, ArgRule, Recorded, UsePrimitive } from '../engine/rules.js';
import type { PublicKeyAlgorithm } from '../types.js';

type Fields = Omit<ApiRule, 'path' | 'bare'>;

function rule(path: string, fields: Fields, bare?: number): ApiRule {
  return bare === undefined ? { path, ...fields } : { path, bare, ...fields };
}

function each(prefix: string, members: string[], fields: Fields, bare?: number): ApiRule[] {
  return members.map((member) => rule(`${prefix}.${member}`, fields, bare));
}

const KEY_MATERIAL_LOADERS = [
  'from_pkcs1_pem',
  'from_pkcs1_der',
  'from_pkcs8_pem',
  'from_pkcs8_der',
  'from_public_key_pem',
  'from_public_key_der',
  'read_pkcs8_pem_file',
  'read_pkcs8_der_file',
  'read_public_key_pem_file',
  'from_sec1_pem',
  'from_sec1_der',
  'from_sec1_bytes',
  'from_bytes',
  'from_slice',
  'from_encoded_point',
  'from_components',
  'from',
];

function material(algorithm: PublicKeyAlgorithm, curve?: string): Fields {
  return { primitive: 'key-material', algorithm, curve, returnsKey: true };
}

function rsaCrate(): ApiRule[] {
  const size1: ArgRule[] = [{ arg: { index: 1 }, read: 'key-size' }];
  const generate: Fields = {
    primitive: 'key-generation',
    algorithm: 'RSA',
    args: size1,
    returnsKey: true,
  };
  const sign: Fields = { primitive: 'signature', algorithm: 'RSA', returnsKey: true };
  return [
    ...each('rsa.RsaPrivateKey', ['new', 'new_with_exp'], generate, 2),
    ...each('rsa.RsaPrivateKey', KEY_MATERIAL_LOADERS, material('RSA'), 2),
    ...each('rsa.RsaPublicKey', [...KEY_MATERIAL_LOADERS, 'new'], material('RSA'), 2),
    ...each(
      'rsa.Oaep',
      ['new', 'new_with_label'],
      { primitive: 'encryption', algorithm: 'RSA' },
      2,
    ),
    ...each(
      'rsa.Pkcs1v15Sign',
      ['new', 'new_unprefixed'],
      { primitive: 'signature', algorithm: 'RSA' },
      2,
    ),
    ...each('rsa.pkcs1v15.SigningKey', ['new', 'new_unprefixed', ...KEY_MATERIAL_LOADERS], sign),
    ...each('rsa.pkcs1v15.SigningKey', ['random'], { ...generate, primitive: 'key-generation' }),
    ...each('rsa.pkcs1v15.VerifyingKey', ['new', 'new_unprefixed', ...KEY_MATERIAL_LOADERS], sign),
    ...each('rsa.pss.SigningKey', ['new', ...KEY_MATERIAL_LOADERS], sign),
    ...each('rsa.pss.BlindedSigningKey', ['new', ...KEY_MATERIAL_LOADERS], sign),
    ...each('rsa.pss.VerifyingKey', ['new', ...KEY_MATERIAL_LOADERS], sign),
    ...each('rsa.pss.SigningKey', ['random'], generate),
  ];
}

export const EC_CRATES: [string, string][] = [
  ['p256', 'P-256'],
  ['p384', 'P-384'],
  ['p521', 'P-521'],
  ['k256', 'secp256k1'],
  ['p224', 'P-224'],
  ['p192', 'P-192'],
];

function ellipticCurveCrates(): ApiRule[] {
  const rules: ApiRule[] = [];
  for (const [crate, curve] of EC_CRATES) {
    const random = ['random', 'generate'];
    const generated: Fields = {
      primitive: 'key-generation',
      algorithm: 'ECDSA',
      curve,
      returnsKey: true,
    };
    rules.push(
      ...each(`${crate}.ecdsa.SigningKey`, random, generated),
      ...each(`${crate}.ecdsa.SigningKey`, KEY_MATERIAL_LOADERS, material('ECDSA', curve)),
      ...each(`${crate}.ecdsa.VerifyingKey`, KEY_MATERIAL_LOADERS, material('ECDSA', curve)),
      ...each(`${crate}.SecretKey`, random, generated),
      ...each(`${crate}.SecretKey`, KEY_MATERIAL_LOADERS, material('ECDSA', curve)),
      ...each(`${crate}.PublicKey`, KEY_MATERIAL_LOADERS, material('ECDSA', curve)),
      ...each(`${crate}.ecdh.EphemeralSecret`, random, { ...generated, algorithm: 'ECDH' }),
      rule(`${crate}.ecdh.diffie_hellman`, {
        primitive: 'key-agreement',
        algorithm: 'ECDH',
        curve,
      }),
    );
  }
  const generic: Fields = { primitive: 'key-generation', algorithm: 'ECDSA', returnsKey: true };
  rules.push(...each('ecdsa.SigningKey', ['random'], generic));
  rules.push(...each('ecdsa.SigningKey', KEY_MATERIAL_LOADERS, material('ECDSA')));
  return rules;
}

function ring(): ApiRule[] {
  const alg0: ArgRule[] = [{ arg: { index: 0 }, read: 'known' }];
  const ecdsa: Fields = {
    primitive: 'key-generation',
    algorithm: 'ECDSA',
    args: alg0,
    returnsKey: true,
  };
  const agree: Fields = {
    primitive: 'key-agreement',
    algorithm: 'ECDH',
    args: alg0,
    returnsKey: true,
  };
  return [
    rule('ring.signature.EcdsaKeyPair.generate_pkcs8', ecdsa, 2),
    ...each(
      'ring.signature.EcdsaKeyPair',
      ['from_pkcs8', 'from_private_key_and_public_key'],
      { ...ecdsa, primitive: 'key-material' },
      2,
    ),
    rule(
      'ring.signature.Ed25519KeyPair.generate_pkcs8',
      { primitive: 'key-generation', algorithm: 'EdDSA', curve: 'Ed25519', returnsKey: true },
      2,
    ),
    ...each(
      'ring.signature.Ed25519KeyPair',
      [
        'from_pkcs8',
        'from_pkcs8_maybe_unchecked',
        'from_seed_unchecked',
        'from_seed_and_public_key',
      ],
      material('EdDSA', 'Ed25519'),
      2,
    ),
    ...each('ring.signature.RsaKeyPair', ['from_pkcs8', 'from_der'], material('RSA'), 2),
    ...each('ring.rsa.KeyPair', ['from_pkcs8', 'from_der'], material('RSA')),
    rule('ring.signature.UnparsedPublicKey.new', {
      primitive: 'signature',
      args: [{ arg: { index: 0 }, read: 'known', required: true }],
    }),
    rule('ring.signature.RsaPublicKeyComponents.verify', {
      primitive: 'signature',
      algorithm: 'RSA',
    }),
    rule('ring.agreement.EphemeralPrivateKey.generate', agree, 2),
    rule('ring.agreement.UnparsedPublicKey.new', { ...agree, returnsKey: false }),
    rule(
      'ring.agreement.agree_ephemeral',
      { primitive: 'key-agreement', algorithm: 'ECDH', args: [{ arg: { index: 0 }, read: 'key' }] },
      2,
    ),
    rule('ring.digest.digest', { args: alg0 }, 2),
    rule('ring.hmac.Key.new', { args: alg0 }),
    rule('ring.aead.UnboundKey.new', { args: alg0 }),
  ];
}

function dalek(): ApiRule[] {
  const ed = (primitive: UsePrimitive): Fields => ({
    primitive,
    algorithm: 'EdDSA',
    curve: 'Ed25519',
    returnsKey: true,
  });
  const x = (primitive: UsePrimitive): Fields => ({
    primitive,
    algorithm: 'X25519',
    curve: 'X25519',
    returnsKey: true,
  });
  const random = ['generate', 'random', 'random_from_rng', 'new'];
  return [
    ...each('ed25519_dalek.SigningKey', ['generate'], ed('key-generation')),
    ...each(
      'ed25519_dalek.SigningKey',
      ['from_bytes', 'from_keypair_bytes', 'from_pkcs8_pem', 'from_pkcs8_der', 'try_from', 'from'],
      ed('key-material'),
    ),
    ...each('ed25519_dalek.Keypair', ['generate'], ed('key-generation')),
    ...each('ed25519_dalek.Keypair', ['from_bytes'], ed('key-material')),
    ...each('ed25519_dalek.SecretKey', ['generate'], ed('key-generation')),
    ...each('ed25519_dalek.SecretKey', ['from_bytes'], ed('key-material')),
    ...each(
      'ed25519_dalek.VerifyingKey',
      ['from_bytes', 'from_public_key_pem', 'try_from', 'from'],
      ed('key-material'),
    ),
    ...each('ed25519_dalek.PublicKey', ['from_bytes', 'from'], ed('key-material')),
    ...each('x25519_dalek.EphemeralSecret', random, x('key-agreement')),
    ...each('x25519_dalek.ReusableSecret', random, x('key-agreement')),
    ...each('x25519_dalek.StaticSecret', random, x('key-agreement')),
    ...each('x25519_dalek.StaticSecret', ['from'], x('key-material')),
    ...each('x25519_dalek.PublicKey', ['from'], x('key-material')),
    rule('x25519_dalek.x25519', {
      primitive: 'key-agreement',
      algorithm: 'X25519',
      curve: 'X25519',
    }),
  ];
}

const SIZE0: ArgRule[] = [{ arg: { index: 0 }, read: 'key-size' }];
const KEY0: ArgRule[] = [{ arg: { index: 0 }, read: 'key' }];

/** The openssl crate's key types: generation and loading. */
function opensslKeys(): ApiRule[] {
  const size0 = SIZE0;
  const rsaLoaders = [
    'private_key_from_pem',
    'private_key_from_pem_passphrase',
    'private_key_from_der',
    'public_key_from_pem',
    'public_key_from_pem_pkcs1',
    'public_key_from_der',
    'public_key_from_der_pkcs1',
    'from_public_components',
    'from_private_components',
  ];
  const ecLoaders = [
    'private_key_from_pem',
    'private_key_from_der',
    'public_key_from_pem',
    'public_key_from_der',
    'from_private_components',
    'from_public_key',
    'from_public_key_affine_coordinates',
  ];
  return [
    ...each(
      'openssl.rsa.Rsa',
      ['generate', 'generate_with_e'],
      { primitive: 'key-generation', algorithm: 'RSA', args: size0, returnsKey: true },
      2,
    ),
    ...each('openssl.rsa.Rsa', rsaLoaders, material('RSA'), 2),
    rule(
      'openssl.ec.EcGroup.from_curve_name',
      { algorithm: 'ECDSA', args: [{ arg: { index: 0 }, read: 'curve' }], returnsKey: true },
      2,
    ),
    rule(
      'openssl.ec.EcKey.generate',
      {
        primitive: 'key-generation',
        algorithm: 'ECDSA',
        args: [{ arg: { index: 0 }, read: 'curve' }],
        returnsKey: true,
      },
      2,
    ),
    ...each('openssl.ec.EcKey', ecLoaders, material('ECDSA'), 2),
    rule(
      'openssl.dsa.Dsa.generate',
      { primitive: 'key-generation', algorithm: 'DSA', args: size0, returnsKey: true },
      2,
    ),
    ...each(
      'openssl.dh.Dh',
      [
        'generate_params',
        'get_2048_256',
        'get_2048_224',
        'get_1024_160',
        'from_pqg',
        'params_from_pem',
        'from_params',
      ],
      { primitive: 'key-agreement', algorithm: 'DH', returnsKey: true },
      2,
    ),
  ];
}

/** The openssl crate's PKey wrappers, signers, encrypters and derivers. */
function opensslOperations(): ApiRule[] {
  const key0 = KEY0;
  return [
    rule('openssl.pkey.PKey.from_rsa', { algorithm: 'RSA', args: key0, returnsKey: true }, 2),
    rule('openssl.pkey.PKey.from_ec_key', { algorithm: 'ECDSA', args: key0, returnsKey: true }, 2),
    rule('openssl.pkey.PKey.from_dsa', { algorithm: 'DSA', args: key0, returnsKey: true }, 2),
    rule('openssl.pkey.PKey.from_dh', { algorithm: 'DH', args: key0, returnsKey: true }, 2),
    rule(
      'openssl.pkey.PKey.generate_ed25519',
      { primitive: 'key-generation', algorithm: 'EdDSA', curve: 'Ed25519', returnsKey: true },
      2,
    ),
    rule(
      'openssl.pkey.PKey.generate_ed448',
      { primitive: 'key-generation', algorithm: 'EdDSA', curve: 'Ed448', returnsKey: true },
      2,
    ),
    rule(
      'openssl.pkey.PKey.generate_x25519',
      { primitive: 'key-agreement', algorithm: 'X25519', returnsKey: true },
      2,
    ),
    rule(
      'openssl.pkey.PKey.generate_x448',
      { primitive: 'key-agreement', algorithm: 'X448', returnsKey: true },
      2,
    ),
    rule(
      'openssl.sign.Signer.new',
      { primitive: 'signature', algorithm: 'RSA', args: [{ arg: { index: 1 }, read: 'key' }] },
      2,
    ),
    rule(
      'openssl.sign.Verifier.new',
      { primitive: 'signature', algorithm: 'RSA', args: [{ arg: { index: 1 }, read: 'key' }] },
      2,
    ),
    rule(
      'openssl.sign.Signer.new_without_digest',
      { primitive: 'signature', algorithm: 'EdDSA', args: key0 },
      2,
    ),
    rule(
      'openssl.sign.Verifier.new_without_digest',
      { primitive: 'signature', algorithm: 'EdDSA', args: key0 },
      2,
    ),
    rule('openssl.encrypt.Encrypter.new', { primitive: 'encryption', algorithm: 'RSA' }, 2),
    rule('openssl.encrypt.Decrypter.new', { primitive: 'encryption', algorithm: 'RSA' }, 2),
    rule(
      'openssl.derive.Deriver.new',
      { primitive: 'key-agreement', algorithm: 'ECDH', args: key0 },
      2,
    ),
  ];
}

function jsonwebtoken(): ApiRule[] {
  const keys: [string, PublicKeyAlgorithm][] = [
    ['rsa', 'RSA'],
    ['ec', 'ECDSA'],
    ['ed', 'EdDSA'],
  ];
  const rules: ApiRule[] = [];
  for (const [prefix, algorithm] of keys) {
    for (const form of ['pem', 'der', 'components', 'raw_components']) {
      rules.push(rule(`jsonwebtoken.EncodingKey.from_${prefix}_${form}`, material(algorithm), 2));
      rules.push(rule(`jsonwebtoken.DecodingKey.from_${prefix}_${form}`, material(algorithm), 2));
    }
  }
  const alg0: ArgRule[] = [{ arg: { index: 0 }, read: 'jwt', required: true }];
  rules.push(rule('jsonwebtoken.Header.new', { primitive: 'signature', args: alg0 }));
  rules.push(rule('jsonwebtoken.Validation.new', { primitive: 'signature', args: alg0 }));
  return rules;
}

function symmetric(): ApiRule[] {
  const hashes: [string, string, string][] = [
    ['sha2', 'Sha224', 'SHA-224'],
    ['sha2', 'Sha256', 'SHA-256'],
    ['sha2', 'Sha384', 'SHA-384'],
    ['sha2', 'Sha512', 'SHA-512'],
    ['sha1', 'Sha1', 'SHA-1'],
    ['md5', 'Md5', 'MD5'],
    ['sha3', 'Sha3_256', 'SHA3-256'],
    ['sha3', 'Sha3_512', 'SHA3-512'],
  ];
  const rules: ApiRule[] = [];
  for (const [crate, type, algorithm] of hashes) {
    rules.push(
      ...each(`${crate}.${type}`, ['new', 'digest', 'default', 'new_with_prefix'], {
        records: { algorithm, kind: 'hash' },
      }),
    );
  }
  const record = (path: string, members: string[], records: Recorded) =>
    each(path, members, { records });
  rules.push(
    ...record('md5', ['compute'], { algorithm: 'MD5', kind: 'hash' }),
    ...record('blake3', ['hash'], { algorithm: 'BLAKE3', kind: 'hash' }),
    ...record('aes_gcm.Aes256Gcm', ['new', 'new_from_slice'], {
      algorithm: 'AES-256-GCM',
      kind: 'ae',
    }),
    ...record('aes_gcm.Aes128Gcm', ['new', 'new_from_slice'], {
      algorithm: 'AES-128-GCM',
      kind: 'ae',
    }),
    ...record('chacha20poly1305.ChaCha20Poly1305', ['new', 'new_from_slice'], {
      algorithm: 'ChaCha20-Poly1305',
      kind: 'ae',
    }),
    ...record('chacha20poly1305.XChaCha20Poly1305', ['new', 'new_from_slice'], {
      algorithm: 'XChaCha20-Poly1305',
      kind: 'ae',
    }),
    ...record('hmac.Hmac', ['new', 'new_from_slice'], { algorithm: 'HMAC', kind: 'mac' }),
    ...record('hkdf.Hkdf', ['new', 'extract'], { algorithm: 'HKDF', kind: 'kdf' }),
    ...record('pbkdf2', ['pbkdf2_hmac', 'pbkdf2'], { algorithm: 'PBKDF2', kind: 'kdf' }),
    ...record('argon2.Argon2', ['default', 'new'], { algorithm: 'Argon2', kind: 'kdf' }),
  );
  return rules;
}

/** Every call rule of the Rust tables. */
export const RUST_CALLS: ApiRule[] = [
  ...rsaCrate(),
  ...ellipticCurveCrates(),
  ...ring(),
  ...dalek(),
  ...opensslKeys(),
  ...opensslOperations(),
  ...jsonwebtoken(),
  ...symmetric(),
];
