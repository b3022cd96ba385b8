/**
 * The Rust crypto APIs the detector knows, as data: the RustCrypto crates (rsa, p256, p384,
 * p521, k256, ecdsa, sha2, aes-gcm, chacha20poly1305, hmac), ring, the dalek crates, the openssl
 * crate and jsonwebtoken. Paths are crate-qualified, as `use` declarations expand them.
 */
import { PathTable } from '../path-table-b.js';
import type {
  ApiRule,
  ApiTables,
  ArgRule,
  KeyType,
  KnownValue,
  MethodRule,
  Primitive,
  Recorded,
} from '../rules-b.js';
import { methodsByName } from '../rules-b.js';
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

const EC_CRATES: [string, string][] = [
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
  const ed = (primitive: Primitive): Fields => ({
    primitive,
    algorithm: 'EdDSA',
    curve: 'Ed25519',
    returnsKey: true,
  });
  const x = (primitive: Primitive): Fields => ({
    primitive,
    algorithm: 'X25519',
    curve: 'Curve25519',
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
      curve: 'Curve25519',
    }),
  ];
}

function opensslCrate(): ApiRule[] {
  const size0: ArgRule[] = [{ arg: { index: 0 }, read: 'key-size' }];
  const key0: ArgRule[] = [{ arg: { index: 0 }, read: 'key' }];
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

const CALLS: ApiRule[] = [
  ...rsaCrate(),
  ...ellipticCurveCrates(),
  ...ring(),
  ...dalek(),
  ...opensslCrate(),
  ...jsonwebtoken(),
  ...symmetric(),
];

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

function knownRing(): KnownValue[] {
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
  values.push(
    {
      path: 'ring.agreement.X25519',
      bare: 2,
      algorithm: 'X25519',
      curve: 'Curve25519',
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

const KNOWN: KnownValue[] = [...knownRing(), ...knownOther()];

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
    { path: 'x25519_dalek.StaticSecret', algorithm: 'X25519', curve: 'Curve25519' },
    { path: 'x25519_dalek.EphemeralSecret', algorithm: 'X25519', curve: 'Curve25519' },
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
  calls: new PathTable(CALLS),
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
    [...CALLS, ...KNOWN, ...keyTypes()].map((entry) => `${entry.path.split('.')[0] ?? ''}::`),
  ),
  ...CALLS.filter((entry) => entry.bare !== undefined).map(
    (entry) => entry.path.split('.').at(-2) ?? '',
  ),
  ...KNOWN.map((entry) => entry.path.split('.').at(entry.bare === 1 ? -1 : -2) ?? ''),
  ...METHODS.filter((entry) => entry.anyReceiver).map((entry) => entry.method),
];
