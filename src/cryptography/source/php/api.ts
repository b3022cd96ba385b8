/**
 * The PHP crypto APIs the detector knows, as data: ext/openssl (openssl_pkey_new and its
 * options, signing, public-key encryption, derivation), ext/sodium, phpseclib 2 and 3,
 * firebase/php-jwt and lcobucci/jwt, and the hashes and ciphers recorded as algorithms.
 */
import { PathTable } from '../engine/path-table.js';
import type {
  ApiRule,
  ApiTables,
  ArgReader,
  Decision,
  KeyType,
  KnownValue,
  MethodRule,
  Recorded,
  TableSite,
} from '../engine/rules.js';
import { methodsByName } from '../engine/rules.js';
import type { PublicKeyAlgorithm } from '../types.js';

type Fields = Omit<ApiRule, 'path' | 'bare'>;

function each(prefix: string, members: string[], fields: Fields, bare?: number): ApiRule[] {
  return members.map((member) => {
    const path = prefix ? `${prefix}.${member}` : member;
    return bare === undefined ? { path, ...fields } : { path, bare, ...fields };
  });
}

/**
 * `openssl_pkey_new($options)`: the key type from `private_key_type` (RSA when absent, as
 * OpenSSL's default), the size from `private_key_bits`, the curve from `curve_name` (which
 * alone means EC). The engine reads the option map's entries like named arguments.
 */
function opensslPkeyNew(_site: TableSite, read: ArgReader): Decision {
  const decision: Decision = { primitive: 'key-generation', algorithm: 'RSA' };
  const type = read({ index: 0, keyword: 'options', property: 'private_key_type' }, 'key-type');
  const bits = read({ index: 0, keyword: 'options', property: 'private_key_bits' }, 'key-size');
  const curve = read({ index: 0, keyword: 'options', property: 'curve_name' }, 'curve');
  if (curve?.curve) {
    decision.algorithm = curve.algorithm ?? 'ECDSA';
    decision.curve = curve.curve;
  }
  if (type?.algorithm) decision.algorithm = type.algorithm;
  if (bits?.keySize !== undefined && !curve?.curve) decision.keySize = bits.keySize;
  return decision;
}

function openssl(): ApiRule[] {
  const key = (index: number) => [{ arg: { index }, read: 'key' }] as const;
  const sign: Fields = { primitive: 'signature', algorithm: 'RSA', args: key(2) };
  return [
    { path: 'openssl_pkey_new', decide: opensslPkeyNew, returnsKey: true },
    ...each('', ['openssl_sign', 'openssl_verify'], sign),
    ...each(
      '',
      ['openssl_public_encrypt', 'openssl_private_decrypt', 'openssl_seal', 'openssl_open'],
      { primitive: 'encryption', algorithm: 'RSA' },
    ),
    ...each('', ['openssl_private_encrypt', 'openssl_public_decrypt'], {
      primitive: 'signature',
      algorithm: 'RSA',
    }),
    ...each('', ['openssl_pkey_derive'], {
      primitive: 'key-agreement',
      algorithm: 'ECDH',
      args: key(1),
    }),
    ...each('', ['openssl_dh_compute_key'], { primitive: 'key-agreement', algorithm: 'DH' }),
    ...each('', ['openssl_csr_new'], { primitive: 'signature', algorithm: 'RSA', args: key(1) }),
    ...each('', ['openssl_encrypt', 'openssl_decrypt'], {
      args: [{ arg: { index: 1, keyword: 'cipher_algo' }, read: 'cipher' }],
    }),
    ...each('', ['openssl_digest'], {
      args: [{ arg: { index: 1, keyword: 'digest_algo' }, read: 'hash' }],
    }),
  ];
}

function sodium(): ApiRule[] {
  const ed: Fields = { primitive: 'signature', algorithm: 'EdDSA', curve: 'Ed25519' };
  const x: Fields = { primitive: 'key-agreement', algorithm: 'X25519', curve: 'X25519' };
  const record = (members: string[], records: Recorded) => each('', members, { records });
  return [
    ...each('', ['sodium_crypto_sign_keypair', 'sodium_crypto_sign_seed_keypair'], {
      ...ed,
      primitive: 'key-generation',
    }),
    ...each(
      '',
      [
        'sodium_crypto_sign',
        'sodium_crypto_sign_open',
        'sodium_crypto_sign_detached',
        'sodium_crypto_sign_verify_detached',
      ],
      ed,
    ),
    ...each(
      '',
      [
        'sodium_crypto_box_keypair',
        'sodium_crypto_box_seed_keypair',
        'sodium_crypto_kx_keypair',
        'sodium_crypto_kx_seed_keypair',
        'sodium_crypto_box',
        'sodium_crypto_box_open',
        'sodium_crypto_box_seal',
        'sodium_crypto_box_seal_open',
        'sodium_crypto_kx_client_session_keys',
        'sodium_crypto_kx_server_session_keys',
        'sodium_crypto_scalarmult',
      ],
      x,
    ),
    ...record(['sodium_crypto_secretbox', 'sodium_crypto_secretbox_open'], {
      algorithm: 'XSalsa20-Poly1305',
      kind: 'ae',
    }),
    ...record(
      [
        'sodium_crypto_aead_xchacha20poly1305_ietf_encrypt',
        'sodium_crypto_aead_xchacha20poly1305_ietf_decrypt',
      ],
      { algorithm: 'XChaCha20-Poly1305', kind: 'ae' },
    ),
    ...record(
      [
        'sodium_crypto_aead_chacha20poly1305_ietf_encrypt',
        'sodium_crypto_aead_chacha20poly1305_ietf_decrypt',
      ],
      { algorithm: 'ChaCha20-Poly1305', kind: 'ae' },
    ),
    ...record(['sodium_crypto_aead_aes256gcm_encrypt', 'sodium_crypto_aead_aes256gcm_decrypt'], {
      algorithm: 'AES-256-GCM',
      kind: 'ae',
    }),
    ...record(['sodium_crypto_generichash'], { algorithm: 'BLAKE2b', kind: 'hash' }),
    ...record(['sodium_crypto_pwhash', 'sodium_crypto_pwhash_str'], {
      algorithm: 'Argon2id',
      kind: 'kdf',
    }),
  ];
}

function phpseclib(): ApiRule[] {
  const v3 = 'phpseclib3.Crypt';
  const keyGen = (algorithm: PublicKeyAlgorithm, read: 'key-size' | 'curve'): Fields => ({
    primitive: 'key-generation',
    algorithm,
    args: [{ arg: { index: 0 }, read }],
    returnsKey: true,
  });
  const load = (algorithm: PublicKeyAlgorithm): Fields => ({
    primitive: 'key-material',
    algorithm,
    returnsKey: true,
  });
  const loaders = [
    'load',
    'loadPrivateKey',
    'loadPublicKey',
    'loadFormat',
    'loadParameters',
    'loadPrivateKeyFormat',
    'loadPublicKeyFormat',
  ];
  return [
    ...each(`${v3}.RSA`, ['createKey'], keyGen('RSA', 'key-size')),
    ...each(`${v3}.RSA`, loaders, load('RSA')),
    ...each(`${v3}.EC`, ['createKey'], keyGen('ECDSA', 'curve')),
    ...each(`${v3}.EC`, loaders, load('ECDSA')),
    ...each(`${v3}.DSA`, ['createKey', 'createParameters'], keyGen('DSA', 'key-size')),
    ...each(`${v3}.DSA`, loaders, load('DSA')),
    ...each(`${v3}.DH`, ['createKey', 'createParameters'], {
      primitive: 'key-agreement',
      algorithm: 'DH',
      returnsKey: true,
    }),
    ...each(`${v3}.DH`, ['computeSecret'], {
      primitive: 'key-agreement',
      algorithm: 'DH',
      args: [{ arg: { index: 0 }, read: 'key' }],
    }),
    ...each('phpseclib.Crypt.RSA', ['new'], { algorithm: 'RSA', returnsKey: true }),
    ...each(`${v3}.AES`, ['new'], { records: { algorithm: 'AES', kind: 'block-cipher' } }),
  ];
}

function jwt(): ApiRule[] {
  const alg = (index: number, name: string, required: boolean) =>
    [{ arg: { index, name }, read: 'jwt', required }] as const;
  const rules: ApiRule[] = [
    ...each(
      'Firebase.JWT.JWT',
      ['encode'],
      { primitive: 'signature', args: alg(2, 'alg', true) },
      2,
    ),
    ...each(
      'Firebase.JWT.JWT',
      ['decode'],
      { primitive: 'signature', args: alg(2, 'allowed_algs', false) },
      2,
    ),
    ...each('Firebase.JWT.Key', ['new'], {
      primitive: 'signature',
      args: alg(1, 'algorithm', true),
    }),
  ];
  const lcobucci: [string, PublicKeyAlgorithm][] = [
    ['Rsa', 'RSA'],
    ['Ecdsa', 'ECDSA'],
  ];
  for (const [family, algorithm] of lcobucci) {
    for (const hash of ['Sha256', 'Sha384', 'Sha512']) {
      rules.push({
        path: `Lcobucci.JWT.Signer.${family}.${hash}.new`,
        primitive: 'signature',
        algorithm,
      });
    }
  }
  rules.push({
    path: 'Lcobucci.JWT.Signer.Eddsa.new',
    primitive: 'signature',
    algorithm: 'EdDSA',
    curve: 'Ed25519',
  });
  return rules;
}

function hashes(): ApiRule[] {
  const fixed: [string, string][] = [
    ['md5', 'MD5'],
    ['md5_file', 'MD5'],
    ['sha1', 'SHA-1'],
    ['sha1_file', 'SHA-1'],
  ];
  return [
    ...fixed.map(
      ([name, algorithm]): ApiRule => ({ path: name, records: { algorithm, kind: 'hash' } }),
    ),
    ...each('', ['hash', 'hash_file', 'hash_init'], {
      args: [{ arg: { index: 0, keyword: 'algo' }, read: 'hash' }],
    }),
    ...each('', ['hash_hmac', 'hash_hmac_file'], {
      args: [{ arg: { index: 0, keyword: 'algo' }, read: 'hmac' }],
    }),
    ...each('', ['hash_pbkdf2'], { records: { algorithm: 'PBKDF2', kind: 'kdf' } }),
    ...each('', ['password_hash'], { records: { algorithm: 'bcrypt', kind: 'kdf' } }),
  ];
}

/** paragonie/sodium_compat: the same functions as static methods of its polyfill class. */
function sodiumCompat(): ApiRule[] {
  return sodium()
    .filter((rule) => rule.path.startsWith('sodium_'))
    .map((rule) => ({
      ...rule,
      path: `ParagonIE_Sodium_Compat.${rule.path.slice('sodium_'.length)}`,
      bare: 2,
    }));
}

const CALLS: ApiRule[] = [
  ...openssl(),
  ...sodium(),
  ...sodiumCompat(),
  ...phpseclib(),
  ...jwt(),
  ...hashes(),
];

const SIGNING: PublicKeyAlgorithm[] = ['RSA', 'DSA', 'ECDSA', 'EdDSA'];

function methods(names: string[], fields: Omit<MethodRule, 'method'>): MethodRule[] {
  return names.map((method) => ({ method, ...fields }));
}

const METHODS: MethodRule[] = [
  ...methods(['sign', 'verify'], { primitive: 'signature', families: SIGNING }),
  ...methods(['encrypt', 'decrypt'], { primitive: 'encryption', families: ['RSA'] }),
  ...methods(['createKey'], {
    primitive: 'key-generation',
    families: ['RSA'],
    args: [{ arg: { index: 0 }, read: 'key-size' }],
    returnsKey: true,
  }),
  ...methods(['loadKey', 'setPrivateKey', 'setPublicKey'], {
    primitive: 'key-material',
    families: ['RSA'],
  }),
  ...methods(['getPublicKey', 'toPublicKey'], { returnsKey: true }),
];

function keyTypes(): KnownValue[] {
  const types: [string, PublicKeyAlgorithm][] = [
    ['RSA', 'RSA'],
    ['EC', 'ECDSA'],
    ['DSA', 'DSA'],
    ['DH', 'DH'],
    ['ED25519', 'EdDSA'],
    ['X25519', 'X25519'],
  ];
  return types.map(([name, algorithm]) => ({
    path: `OPENSSL_KEYTYPE_${name}`,
    bare: 1,
    algorithm,
  }));
}

const KNOWN: KnownValue[] = keyTypes();

function types(): KeyType[] {
  const v3 = 'phpseclib3.Crypt';
  return [
    { path: `${v3}.RSA.PrivateKey`, algorithm: 'RSA' },
    { path: `${v3}.RSA.PublicKey`, algorithm: 'RSA' },
    { path: `${v3}.RSA`, algorithm: 'RSA' },
    { path: `${v3}.EC.PrivateKey`, algorithm: 'ECDSA' },
    { path: `${v3}.EC.PublicKey`, algorithm: 'ECDSA' },
    { path: `${v3}.DSA.PrivateKey`, algorithm: 'DSA' },
    { path: 'phpseclib.Crypt.RSA', algorithm: 'RSA' },
  ];
}

export const PHP_TABLES: ApiTables = {
  calls: new PathTable(CALLS),
  methods: methodsByName(METHODS),
  known: new PathTable(KNOWN),
  types: new PathTable(types()),
  passthrough: new Set([
    'withPadding',
    'withHash',
    'withMGFHash',
    'withSaltLength',
    'withLabel',
    'withSignatureFormat',
    'withContext',
  ]),
};

/**
 * Words at least one of which a file must contain (PHP names are case-insensitive): the
 * functions as calls (`hash(`), the classes and namespaces of the others.
 */
export const PHP_KEYWORDS: readonly string[] = [
  ...new Set(
    CALLS.map((rule) =>
      rule.path.includes('.') ? (rule.path.split('.')[0] ?? '') : `${rule.path}(`,
    ),
  ),
  ...CALLS.filter((rule) => rule.bare !== undefined).map(
    (rule) => rule.path.split('.').at(-2) ?? '',
  ),
];
