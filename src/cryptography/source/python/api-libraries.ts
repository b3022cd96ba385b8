/**
 * Python crypto libraries besides pyca/cryptography, as data: PyCryptodome (`Crypto.` and
 * `Cryptodome.`), ecdsa, paramiko, PyJWT and python-jose, python-rsa and PyNaCl.
 */
import { cipherName, hashName, joseAlgorithm, knownCurve } from '../engine/names.js';
import {
  argValue,
  curveOf,
  fixed,
  kw,
  named,
  propertyValue,
  type Rule,
  type RuleRead,
  symmetricFixed,
} from '../engine/rules.js';
import { lastName, numberOf, stringOf } from '../engine/values.js';
import type { PublicKeyAlgorithm } from '../types.js';

function paths(names: readonly string[], read: RuleRead): Rule[] {
  return names.map((path) => ({ path, read }));
}

function typed(methods: readonly string[], path: RegExp, read: RuleRead): Rule[] {
  return methods.map((method) => ({ path, method, read }));
}

/** `ECC.generate(curve='P-256')`; Ed25519 and Curve25519 keys are EdDSA and X25519. */
function eccCurve(primitive: 'key-generation' | 'key-material'): RuleRead {
  return (site, ctx) => {
    const value = argValue(site, ctx, kw('curve'));
    const curves =
      value?.kind === 'list'
        ? value.items.map((item) => curveOf(ctx.value(item)))
        : [curveOf(value)];
    return curves.map((curve) => {
      let algorithm: PublicKeyAlgorithm = 'ECDSA';
      if (curve === 'Ed25519' || curve === 'Ed448') algorithm = 'EdDSA';
      else if (curve === 'X25519' || curve === 'X448') algorithm = curve;
      return { use: { primitive, algorithm, ...(curve ? { curve } : {}) } };
    });
  };
}

/** `DSS.new(key, 'fips-186-3')` signs with DSA or ECDSA keys: the key's origin says which. */
const dssSigner: RuleRead = (site, ctx) => {
  const key = argValue(site, ctx, kw('key', 0));
  const path = key?.kind === 'api' ? key.path : '';
  if (path.startsWith('Crypto.PublicKey.DSA'))
    return [{ use: { primitive: 'signature', algorithm: 'DSA' } }];
  if (path.startsWith('Crypto.PublicKey.ECC'))
    return [{ use: { primitive: 'signature', algorithm: 'ECDSA' } }];
  return [{ use: { primitive: 'signature', algorithm: 'ECDSA', assumed: true } }];
};

/** `AES.new(key, AES.MODE_GCM)`: the cipher from the path, the mode from the argument. */
const cryptodomeCipher: RuleRead = (site, ctx) => {
  const name = /^Crypto\.Cipher\.(\w+)\.new$/.exec(site.path)?.[1] ?? '';
  const mode = argValue(site, ctx, kw('mode', 1));
  const modeName = mode?.kind === 'api' ? lastName(mode.path).replace(/^MODE_/, '') : undefined;
  const spelled = name
    .replace(/_/g, '-')
    .replace(/^DES3$/, '3DES')
    .replace(/^ARC4$/, 'RC4');
  const symmetric = cipherName(modeName ? `${spelled}/${modeName}` : spelled);
  return symmetric ? [{ symmetric }] : [];
};

const cryptodomeHash: RuleRead = (site) => {
  const name = /^Crypto\.Hash\.(\w+)\.new$/.exec(site.path)?.[1] ?? '';
  if (name === 'HMAC') return [{ symmetric: { algorithm: 'HMAC', kind: 'mac' } }];
  const hash = hashName(name.replace(/_/g, '-'));
  return hash ? [{ symmetric: { algorithm: hash, kind: 'hash' } }] : [];
};

const CRYPTODOME: Rule[] = [
  {
    path: 'Crypto.PublicKey.RSA.generate',
    read: fixed('key-generation', 'RSA', { keySize: kw('bits', 0) }),
  },
  ...paths(
    [
      'Crypto.PublicKey.RSA.import_key',
      'Crypto.PublicKey.RSA.importKey',
      'Crypto.PublicKey.RSA.construct',
    ],
    fixed('key-material', 'RSA'),
  ),
  { path: 'Crypto.PublicKey.ECC.generate', read: eccCurve('key-generation') },
  ...paths(
    ['Crypto.PublicKey.ECC.import_key', 'Crypto.PublicKey.ECC.construct'],
    eccCurve('key-material'),
  ),
  {
    path: 'Crypto.PublicKey.DSA.generate',
    read: fixed('key-generation', 'DSA', { keySize: kw('bits', 0) }),
  },
  ...paths(
    ['Crypto.PublicKey.DSA.import_key', 'Crypto.PublicKey.DSA.construct'],
    fixed('key-material', 'DSA'),
  ),
  ...paths(
    ['Crypto.Cipher.PKCS1_OAEP.new', 'Crypto.Cipher.PKCS1_v1_5.new'],
    fixed('encryption', 'RSA'),
  ),
  ...paths(
    [
      'Crypto.Signature.pkcs1_15.new',
      'Crypto.Signature.PKCS1_v1_5.new',
      'Crypto.Signature.pss.new',
      'Crypto.Signature.PKCS1_PSS.new',
    ],
    fixed('signature', 'RSA'),
  ),
  { path: 'Crypto.Signature.DSS.new', read: dssSigner },
  { path: 'Crypto.Signature.eddsa.new', read: fixed('signature', 'EdDSA') },
  { path: 'Crypto.Protocol.DH.key_agreement', read: fixed('key-agreement', 'ECDH') },
  ...typed(
    ['new'],
    /^Crypto\.Cipher\.(AES|DES3|DES|Blowfish|ARC4|ChaCha20|ChaCha20_Poly1305|Salsa20|CAST)\.new$/,
    cryptodomeCipher,
  ),
  ...typed(['new'], /^Crypto\.Hash\.\w+\.new$/, cryptodomeHash),
  ...paths(['Crypto.Protocol.KDF.PBKDF2'], symmetricFixed('PBKDF2', 'kdf')),
  ...paths(['Crypto.Protocol.KDF.scrypt'], symmetricFixed('scrypt', 'kdf')),
  ...paths(['Crypto.Protocol.KDF.HKDF'], symmetricFixed('HKDF', 'kdf')),
];

/** The `ecdsa` package: curve objects such as NIST256p and SECP256k1; NIST192p by default. */
function ecdsaCurve(
  primitive: 'key-generation' | 'key-material' | 'key-agreement',
  index: number,
  fallback?: string,
): RuleRead {
  return (site, ctx) => {
    const curve = curveOf(argValue(site, ctx, kw('curve', index))) ?? fallback;
    const edwards = curve === 'Ed25519' || curve === 'Ed448';
    const algorithm: PublicKeyAlgorithm = edwards
      ? 'EdDSA'
      : primitive === 'key-agreement'
        ? 'ECDH'
        : 'ECDSA';
    return [{ use: { primitive, algorithm, ...(curve ? { curve } : {}) } }];
  };
}

const ECDSA_KEY = /^ecdsa\.(SigningKey|VerifyingKey)\..*\(\)\./;
const ECDSA_SIGN = [
  'sign',
  'sign_deterministic',
  'sign_digest',
  'sign_digest_deterministic',
  'verify',
  'verify_digest',
];

const ECDSA_PACKAGE: Rule[] = [
  { path: 'ecdsa.SigningKey.generate', read: ecdsaCurve('key-generation', 0, 'P-192') },
  ...paths(
    ['from_string', 'from_pem', 'from_der', 'from_secret_exponent'].map(
      (m) => `ecdsa.SigningKey.${m}`,
    ),
    ecdsaCurve('key-material', 1),
  ),
  ...paths(
    ['from_string', 'from_pem', 'from_der', 'from_public_point'].map(
      (m) => `ecdsa.VerifyingKey.${m}`,
    ),
    ecdsaCurve('key-material', 1),
  ),
  ...typed(
    ECDSA_SIGN,
    new RegExp(`${ECDSA_KEY.source}(${ECDSA_SIGN.join('|')})$`),
    fixed('signature', 'ECDSA'),
  ),
  { path: 'ecdsa.ECDH', read: ecdsaCurve('key-agreement', 0) },
];

/** paramiko's ECDSAKey.generate takes a pyca curve or a bit length (256, 384, 521). */
const paramikoEcdsa: RuleRead = (site, ctx) => {
  const bits = numberOf(argValue(site, ctx, kw('bits', 1)));
  const curve =
    curveOf(argValue(site, ctx, kw('curve', 0))) ??
    (bits ? knownCurve(`p${bits}`) : undefined) ??
    'P-256';
  return [{ use: { primitive: 'key-generation', algorithm: 'ECDSA', curve } }];
};

const PARAMIKO_KEYS: ReadonlyArray<[string, PublicKeyAlgorithm]> = [
  ['RSAKey', 'RSA'],
  ['DSSKey', 'DSA'],
  ['ECDSAKey', 'ECDSA'],
  ['Ed25519Key', 'EdDSA'],
];

const PARAMIKO: Rule[] = [
  {
    path: 'paramiko.RSAKey.generate',
    read: fixed('key-generation', 'RSA', { keySize: kw('bits', 0) }),
  },
  {
    path: 'paramiko.DSSKey.generate',
    read: fixed('key-generation', 'DSA', { keySize: kw('bits', 0) }),
  },
  { path: 'paramiko.ECDSAKey.generate', read: paramikoEcdsa },
  ...PARAMIKO_KEYS.flatMap(([name, algorithm]) =>
    paths(
      [
        `paramiko.${name}`,
        `paramiko.${name}.from_private_key_file`,
        `paramiko.${name}.from_private_key`,
      ],
      fixed('key-material', algorithm),
    ),
  ),
];

/** authlib's `jwt.encode({'alg': 'RS256'}, payload, key)` names the algorithm in the header. */
const authlibEncode: RuleRead = (site, ctx) => {
  const header = argValue(site, ctx, kw('header', 0));
  const alg = header?.kind === 'object' ? stringOf(propertyValue(header, 'alg', ctx)) : undefined;
  const meaning = alg ? joseAlgorithm(alg) : undefined;
  if (meaning?.symmetric) return [{ symmetric: meaning.symmetric }];
  return meaning?.algorithm
    ? [{ use: { primitive: 'signature', algorithm: meaning.algorithm } }]
    : [];
};

const JWT: Rule[] = [
  ...paths(['jwt.encode', 'jws.sign'], named('signature', kw('algorithm', 2), joseAlgorithm)),
  ...paths(['jwt.decode', 'jws.verify'], named('signature', kw('algorithms', 2), joseAlgorithm)),
  { path: 'authlib.jose.jwt.encode', read: authlibEncode },
];

const PYTHON_RSA: Rule[] = [
  { path: 'rsa.newkeys', read: fixed('key-generation', 'RSA', { keySize: kw('nbits', 0) }) },
  ...paths(['rsa.encrypt', 'rsa.decrypt'], fixed('encryption', 'RSA')),
  ...paths(['rsa.sign', 'rsa.verify', 'rsa.sign_hash'], fixed('signature', 'RSA')),
  ...paths(
    [
      'rsa.PublicKey.load_pkcs1',
      'rsa.PrivateKey.load_pkcs1',
      'rsa.PublicKey.load_pkcs1_openssl_pem',
    ],
    fixed('key-material', 'RSA'),
  ),
];

const NACL: Rule[] = [
  {
    path: 'nacl.signing.SigningKey.generate',
    read: fixed('key-generation', 'EdDSA', { curve: 'Ed25519' }),
  },
  ...paths(
    ['nacl.signing.SigningKey', 'nacl.signing.VerifyKey'],
    fixed('key-material', 'EdDSA', { curve: 'Ed25519' }),
  ),
  ...typed(
    ['sign', 'verify'],
    /^nacl\.signing\..*\(\)\.(sign|verify)$/,
    fixed('signature', 'EdDSA', { curve: 'Ed25519' }),
  ),
  { path: 'nacl.public.PrivateKey.generate', read: fixed('key-generation', 'X25519') },
  ...paths(['nacl.public.Box', 'nacl.public.SealedBox'], fixed('key-agreement', 'X25519')),
];

export const PYTHON_LIBRARY_RULES: readonly Rule[] = [
  ...CRYPTODOME,
  ...ECDSA_PACKAGE,
  ...PARAMIKO,
  ...JWT,
  ...PYTHON_RSA,
  ...NACL,
];
