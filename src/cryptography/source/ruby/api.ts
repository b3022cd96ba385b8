/**
 * The Ruby crypto APIs the detector knows, as data: OpenSSL::PKey (RSA, DSA, EC, DH,
 * generate_key), the ed25519 and rbnacl gems, the jwt gem, sshkey, and the hashes, HMACs and
 * ciphers of Digest, OpenSSL and ActiveSupport recorded as algorithms.
 */

import { PathTable } from '../engine/path-table.js';
import type {
  ApiRule,
  ApiTables,
  Decision,
  KnownValue,
  MethodRule,
  Recorded,
  TableSite,
} from '../engine/rules.js';
import { argNode, methodsByName } from '../engine/rules.js';
import type { PublicKeyAlgorithm } from '../types.js';

type Fields = Omit<ApiRule, 'path' | 'bare'>;

function each(prefix: string, members: string[], fields: Fields): ApiRule[] {
  return members.map((member) => ({ path: `${prefix}.${member}`, ...fields }));
}

/** A size-like name for an argument the file does not bind (`bits`, `key_size`, `@length`). */
const SIZE_NAME = /bit|size|len|strength|modulus/i;

/**
 * `RSA.new(2048)` generates, `RSA.new(pem)` or `RSA.new(File.read(path), pass)` loads: the
 * first argument decides, and an unbound one counts as a size only when its name says so.
 */
function sizeOrMaterial(algorithm: PublicKeyAlgorithm) {
  return (site: TableSite, read: Parameters<NonNullable<ApiRule['decide']>>[1]): Decision => {
    const first = argNode(site, { index: 0 });
    if (!first) return { primitive: 'key-generation', algorithm };
    const size = read({ index: 0 }, 'key-size');
    if (size?.keySize !== undefined)
      return { primitive: 'key-generation', algorithm, keySize: size.keySize };
    const named = ['identifier', 'instance_variable', 'constant'].includes(first.type);
    if (site.args.length === 1 && named && SIZE_NAME.test(first.text)) {
      return { primitive: 'key-generation', algorithm };
    }
    return { primitive: 'key-material', algorithm };
  };
}

/** `EC.new('prime256v1')` makes a key on a curve; `EC.new(pem)` loads one. */
function curveOrMaterial(
  site: TableSite,
  read: Parameters<NonNullable<ApiRule['decide']>>[1],
): Decision {
  if (!argNode(site, { index: 0 })) return { primitive: 'key-generation', algorithm: 'ECDSA' };
  const curve = read({ index: 0 }, 'curve');
  if (curve?.curve)
    return {
      primitive: 'key-generation',
      algorithm: curve.algorithm ?? 'ECDSA',
      curve: curve.curve,
    };
  return { primitive: 'key-material', algorithm: 'ECDSA' };
}

function openssl(): ApiRule[] {
  const size0 = [{ arg: { index: 0 }, read: 'key-size' }] as const;
  return [
    { path: 'OpenSSL.PKey.RSA.new', decide: sizeOrMaterial('RSA'), returnsKey: true },
    { path: 'OpenSSL.PKey.DSA.new', decide: sizeOrMaterial('DSA'), returnsKey: true },
    { path: 'OpenSSL.PKey.DH.new', decide: sizeOrMaterial('DH'), returnsKey: true },
    { path: 'OpenSSL.PKey.EC.new', decide: curveOrMaterial, returnsKey: true },
    ...each('OpenSSL.PKey.RSA', ['generate'], {
      primitive: 'key-generation',
      algorithm: 'RSA',
      args: size0,
      returnsKey: true,
    }),
    ...each('OpenSSL.PKey.DSA', ['generate'], {
      primitive: 'key-generation',
      algorithm: 'DSA',
      args: size0,
      returnsKey: true,
    }),
    ...each('OpenSSL.PKey.DH', ['generate'], {
      primitive: 'key-agreement',
      algorithm: 'DH',
      args: size0,
      returnsKey: true,
    }),
    ...each('OpenSSL.PKey.EC', ['generate'], {
      primitive: 'key-generation',
      algorithm: 'ECDSA',
      args: [{ arg: { index: 0 }, read: 'curve' }],
      returnsKey: true,
    }),
    ...each('OpenSSL.PKey', ['generate_key', 'generate_parameters'], {
      primitive: 'key-generation',
      args: [
        { arg: { index: 0 }, read: 'key-type', required: true },
        { arg: { keyword: 'rsa_keygen_bits' }, read: 'key-size' },
        { arg: { keyword: 'ec_paramgen_curve' }, read: 'curve' },
        { arg: { keyword: 'dsa_paramgen_bits' }, read: 'key-size' },
      ],
      returnsKey: true,
    }),
  ];
}

function gems(): ApiRule[] {
  const ed = (primitive: Fields['primitive']): Fields => ({
    primitive,
    algorithm: 'EdDSA',
    curve: 'Ed25519',
    returnsKey: true,
  });
  const box: Fields = {
    primitive: 'key-agreement',
    algorithm: 'X25519',
    curve: 'X25519',
    returnsKey: true,
  };
  return [
    ...each('Ed25519.SigningKey', ['generate'], ed('key-generation')),
    ...each('Ed25519.SigningKey', ['new', 'from_keypair'], ed('key-material')),
    ...each('Ed25519.VerifyKey', ['new'], ed('key-material')),
    ...each('RbNaCl.SigningKey', ['generate'], ed('key-generation')),
    ...each('RbNaCl.SigningKey', ['new'], ed('key-material')),
    ...each('RbNaCl.VerifyKey', ['new'], ed('key-material')),
    ...each('RbNaCl.PrivateKey', ['generate'], box),
    ...each('RbNaCl.PrivateKey', ['new'], { ...box, primitive: 'key-material' }),
    ...each('RbNaCl.PublicKey', ['new'], { ...box, primitive: 'key-material' }),
    ...each('RbNaCl.Box', ['new'], box),
    ...each('RbNaCl.SimpleBox', ['from_keypair'], box),
    ...each('RbNaCl.GroupElement', ['new'], box),
    ...each('RbNaCl.GroupElements.Curve25519', ['new'], box),
    ...each('JWT', ['encode'], {
      primitive: 'signature',
      args: [{ arg: { index: 2, keyword: 'algorithm' }, read: 'jwt', required: true }],
    }),
    // The options hash of decode names the algorithm (`algorithm:` or `algorithms: [...]`).
    ...each('JWT', ['decode'], {
      primitive: 'signature',
      args: [
        { arg: { keyword: 'algorithm' }, read: 'jwt' },
        { arg: { keyword: 'algorithms' }, read: 'jwt' },
      ],
    }),
    ...each('SSHKey', ['generate'], {
      primitive: 'key-generation',
      algorithm: 'RSA',
      args: [
        { arg: { keyword: 'type' }, read: 'key-type' },
        { arg: { keyword: 'bits' }, read: 'key-size' },
      ],
    }),
  ];
}

function symmetric(): ApiRule[] {
  const rules: ApiRule[] = [];
  const hashes: [string, string][] = [
    ['MD5', 'MD5'],
    ['SHA1', 'SHA-1'],
    ['SHA256', 'SHA-256'],
    ['SHA384', 'SHA-384'],
    ['SHA512', 'SHA-512'],
    ['SHA2', 'SHA-256'],
    ['RMD160', 'RIPEMD-160'],
  ];
  const forms = ['new', 'digest', 'hexdigest', 'base64digest', 'file'];
  for (const [type, algorithm] of hashes) {
    const record: Recorded = { algorithm, kind: 'hash' };
    rules.push(
      ...each(`Digest.${type}`, forms, { records: record }),
      ...each(`OpenSSL.Digest.${type}`, forms, { records: record }),
    );
  }
  const hashArg = [{ arg: { index: 0 }, read: 'hash' }] as const;
  const record = (path: string, members: string[], records: Recorded) =>
    each(path, members, { records });
  rules.push(
    ...each('OpenSSL.Digest', ['new', 'digest', 'hexdigest', 'base64digest'], { args: hashArg }),
    ...each('OpenSSL.HMAC', ['digest', 'hexdigest', 'base64digest'], {
      args: [{ arg: { index: 0 }, read: 'hmac' }],
    }),
    ...each('OpenSSL.HMAC', ['new'], { args: [{ arg: { index: 1 }, read: 'hmac' }] }),
    ...each('OpenSSL.Cipher', ['new'], { args: [{ arg: { index: 0 }, read: 'cipher' }] }),
    ...record('OpenSSL.Cipher.AES', ['new'], { algorithm: 'AES', kind: 'block-cipher' }),
    ...record('OpenSSL.Cipher.AES128', ['new'], { algorithm: 'AES-128', kind: 'block-cipher' }),
    ...record('OpenSSL.Cipher.AES256', ['new'], { algorithm: 'AES-256', kind: 'block-cipher' }),
    ...record('OpenSSL.KDF', ['pbkdf2_hmac'], { algorithm: 'PBKDF2', kind: 'kdf' }),
    ...record('OpenSSL.KDF', ['hkdf'], { algorithm: 'HKDF', kind: 'kdf' }),
    ...record('OpenSSL.PKCS5', ['pbkdf2_hmac', 'pbkdf2_hmac_sha1'], {
      algorithm: 'PBKDF2',
      kind: 'kdf',
    }),
    ...record('ActiveSupport.MessageEncryptor', ['new'], { algorithm: 'AES-256-GCM', kind: 'ae' }),
    ...record('ActiveSupport.KeyGenerator', ['new'], { algorithm: 'PBKDF2', kind: 'kdf' }),
    ...record('BCrypt.Password', ['create'], { algorithm: 'bcrypt', kind: 'kdf' }),
    ...record('RbNaCl.SecretBox', ['new'], { algorithm: 'XSalsa20-Poly1305', kind: 'ae' }),
  );
  return rules;
}

const CALLS: ApiRule[] = [...openssl(), ...gems(), ...symmetric()];

const SIGNING: PublicKeyAlgorithm[] = ['RSA', 'DSA', 'ECDSA', 'EdDSA'];

function methods(names: string[], fields: Omit<MethodRule, 'method'>): MethodRule[] {
  return names.map((method) => ({ method, ...fields }));
}

const METHODS: MethodRule[] = [
  ...methods(['sign', 'verify', 'sign_raw', 'verify_raw', 'verify_recover'], {
    primitive: 'signature',
    families: SIGNING,
  }),
  // A certificate or CSR signed with a key: the key's family.
  ...methods(['sign'], {
    primitive: 'signature',
    anyReceiver: true,
    args: [{ arg: { index: 0 }, read: 'key', required: true }],
  }),
  ...methods(['sign_pss', 'verify_pss', 'private_encrypt', 'public_decrypt'], {
    primitive: 'signature',
    algorithm: 'RSA',
    anyReceiver: true,
  }),
  ...methods(['dsa_sign_asn1', 'dsa_verify_asn1'], {
    primitive: 'signature',
    families: ['ECDSA', 'DSA'],
  }),
  ...methods(['public_encrypt', 'private_decrypt'], {
    primitive: 'encryption',
    algorithm: 'RSA',
    anyReceiver: true,
  }),
  ...methods(['encrypt', 'decrypt'], { primitive: 'encryption', families: ['RSA'] }),
  ...methods(['dh_compute_key'], {
    primitive: 'key-agreement',
    algorithm: 'ECDH',
    anyReceiver: true,
  }),
  ...methods(['compute_key'], { primitive: 'key-agreement', families: ['DH'] }),
  ...methods(['derive'], { primitive: 'key-agreement', families: ['ECDSA'], algorithm: 'ECDH' }),
  ...methods(['derive'], {
    primitive: 'key-agreement',
    families: ['DH', 'ECDH', 'X25519', 'X448'],
  }),
  ...methods(['generate_key!', 'generate_key'], {
    primitive: 'key-generation',
    families: ['ECDSA', 'DH'],
  }),
  ...methods(['public_key', 'verify_key', 'public_key_from'], { returnsKey: true }),
];

const KNOWN: KnownValue[] = [];

export const RUBY_TABLES: ApiTables = {
  calls: new PathTable(CALLS),
  methods: methodsByName(METHODS),
  known: new PathTable(KNOWN),
  types: new PathTable([]),
  passthrough: new Set(['freeze', 'to_s', 'to_sym', 'dup', 'itself', 'tap']),
};

/** Words at least one of which a file must contain for the detector to find anything. */
export const RUBY_KEYWORDS: readonly string[] = [
  // The class a rule calls on: `RSA` for OpenSSL::PKey::RSA.new, which an include or an
  // alias (`RSA = OpenSSL::PKey::RSA`) still spells out.
  ...new Set(CALLS.map((rule) => rule.path.split('.').at(-2) ?? rule.path)),
  ...METHODS.filter((rule) => rule.anyReceiver && rule.method !== 'sign').map(
    (rule) => rule.method,
  ),
];
