/**
 * Go's crypto packages and the common third-party ones, as data: crypto/rsa, ecdsa, ecdh,
 * ed25519, dsa, elliptic, x509, mlkem; golang.org/x/crypto (curve25519, nacl, ssh); golang-jwt,
 * go-jose and jwx. Calls are rules on `importpath.Func`; constants such as
 * `jwt.SigningMethodRS256` or `x509.SHA256WithRSA` are reference rules.
 */
import { joseAlgorithm, knownCurve, type NameMeaning, signatureName } from '../engine/names.js';
import {
  argValue,
  at,
  emissionsOf,
  fixed,
  named,
  type Rule,
  type RuleRead,
} from '../engine/rules.js';
import { lastName, own, type Value } from '../engine/values.js';
import type { PublicKeyAlgorithm } from '../types.js';

function paths(pkg: string, names: readonly string[], read: RuleRead): Rule[] {
  return names.map((name) => ({ path: `${pkg}.${name}`, read }));
}

function typed(methods: readonly string[], path: RegExp, read: RuleRead): Rule[] {
  return methods.map((method) => ({ path, method, read }));
}

const DSA_SIZES: Readonly<Record<string, number>> = {
  L1024N160: 1024,
  L2048N224: 2048,
  L2048N256: 2048,
  L3072N256: 3072,
};

function dsaSize(value: Value): number | undefined {
  return value.kind === 'api' ? own(DSA_SIZES, lastName(value.path)) : undefined;
}

/** `ecdh.P256().GenerateKey(rand.Reader)`: the curve is in the path. */
function ecdhCurve(primitive: 'key-generation' | 'key-material' | 'key-agreement'): RuleRead {
  return (site) => {
    const name = /crypto\/ecdh\.(P256|P384|P521|X25519)\(\)/.exec(site.path)?.[1];
    if (name === 'X25519') return [{ use: { primitive, algorithm: 'X25519' } }];
    const curve = name ? knownCurve(name) : undefined;
    return [{ use: { primitive, algorithm: 'ECDH', ...(curve ? { curve } : {}) } }];
  };
}

const KEY_FAMILY: ReadonlyArray<[RegExp, PublicKeyAlgorithm]> = [
  [/^(new )?crypto\/rsa\./, 'RSA'],
  [/^(new )?crypto\/ecdsa\./, 'ECDSA'],
  [/^(new )?crypto\/ed25519\./, 'EdDSA'],
  [/^(new )?crypto\/dsa\./, 'DSA'],
];

/** `ssh.NewSignerFromKey(key)`: a key of a family only when the file shows where it came from. */
const sshKey: RuleRead = (site, ctx) => {
  const key = argValue(site, ctx, at(0));
  if (key?.kind !== 'api') return [];
  const family = KEY_FAMILY.find(([pattern]) => pattern.test(key.path))?.[1];
  return family ? [{ use: { primitive: 'key-material', algorithm: family } }] : [];
};

const STANDARD: Rule[] = [
  { path: 'crypto/rsa.GenerateKey', read: fixed('key-generation', 'RSA', { keySize: at(1) }) },
  {
    path: 'crypto/rsa.GenerateMultiPrimeKey',
    read: fixed('key-generation', 'RSA', { keySize: at(2) }),
  },
  ...paths(
    'crypto/rsa',
    [
      'EncryptOAEP',
      'DecryptOAEP',
      'EncryptPKCS1v15',
      'DecryptPKCS1v15',
      'DecryptPKCS1v15SessionKey',
    ],
    fixed('encryption', 'RSA'),
  ),
  ...paths(
    'crypto/rsa',
    ['SignPKCS1v15', 'SignPSS', 'VerifyPKCS1v15', 'VerifyPSS'],
    fixed('signature', 'RSA'),
  ),
  ...paths('new crypto/rsa', ['PublicKey', 'PrivateKey'], fixed('key-material', 'RSA')),
  ...typed(['Sign'], /^(new )?crypto\/rsa\..*\(\)\.Sign$/, fixed('signature', 'RSA')),
  ...typed(['Decrypt'], /^(new )?crypto\/rsa\..*\(\)\.Decrypt$/, fixed('encryption', 'RSA')),
  { path: 'crypto/ecdsa.GenerateKey', read: fixed('key-generation', 'ECDSA', { curve: at(0) }) },
  ...paths(
    'crypto/ecdsa',
    ['Sign', 'SignASN1', 'Verify', 'VerifyASN1'],
    fixed('signature', 'ECDSA'),
  ),
  ...paths(
    'new crypto/ecdsa',
    ['PublicKey', 'PrivateKey'],
    fixed('key-material', 'ECDSA', { curve: { keyword: 'Curve' } }),
  ),
  ...typed(['Sign'], /^(new )?crypto\/ecdsa\..*\(\)\.Sign$/, fixed('signature', 'ECDSA')),
  ...typed(['ECDH'], /^(new )?crypto\/ecdsa\..*\(\)\.ECDH$/, fixed('key-agreement', 'ECDH')),
  ...typed(['GenerateKey'], /^crypto\/ecdh\.\w+\(\)\.GenerateKey$/, ecdhCurve('key-generation')),
  ...typed(
    ['NewPrivateKey', 'NewPublicKey'],
    /^crypto\/ecdh\.\w+\(\)\.New(Private|Public)Key$/,
    ecdhCurve('key-material'),
  ),
  ...typed(['ECDH'], /^(new )?crypto\/ecdh\..*\.ECDH$/, ecdhCurve('key-agreement')),
  {
    path: 'crypto/ed25519.GenerateKey',
    read: fixed('key-generation', 'EdDSA', { curve: 'Ed25519' }),
  },
  ...paths(
    'crypto/ed25519',
    ['Sign', 'Verify', 'VerifyWithOptions'],
    fixed('signature', 'EdDSA', { curve: 'Ed25519' }),
  ),
  {
    path: 'crypto/ed25519.NewKeyFromSeed',
    read: fixed('key-material', 'EdDSA', { curve: 'Ed25519' }),
  },
  ...typed(
    ['Sign'],
    /^(new )?crypto\/ed25519\..*\(\)\.Sign$/,
    fixed('signature', 'EdDSA', { curve: 'Ed25519' }),
  ),
  {
    path: 'crypto/dsa.GenerateParameters',
    read: fixed('key-generation', 'DSA', { keySize: { ...at(2), read: dsaSize } }),
  },
  { path: 'crypto/dsa.GenerateKey', read: fixed('key-generation', 'DSA') },
  ...paths('crypto/dsa', ['Sign', 'Verify'], fixed('signature', 'DSA')),
  { path: 'crypto/elliptic.GenerateKey', read: fixed('key-generation', 'ECDH', { curve: at(0) }) },
  ...typed(['ScalarMult'], /^crypto\/elliptic\.P\d+\(\)\.ScalarMult$/, (site) => {
    const curve = knownCurve(/elliptic\.(P\d+)\(\)/.exec(site.path)?.[1] ?? '');
    return [
      { use: { primitive: 'key-agreement', algorithm: 'ECDH', ...(curve ? { curve } : {}) } },
    ];
  }),
  ...paths(
    'crypto/x509',
    [
      'ParsePKCS1PrivateKey',
      'ParsePKCS1PublicKey',
      'MarshalPKCS1PrivateKey',
      'MarshalPKCS1PublicKey',
    ],
    fixed('key-material', 'RSA'),
  ),
  ...paths(
    'crypto/x509',
    ['ParseECPrivateKey', 'MarshalECPrivateKey'],
    fixed('key-material', 'ECDSA'),
  ),
  ...paths(
    'crypto/mlkem',
    ['GenerateKey768', 'GenerateKey1024'],
    fixed('key-generation', 'ML-KEM'),
  ),
  ...paths(
    'crypto/mlkem',
    [
      'NewEncapsulationKey768',
      'NewEncapsulationKey1024',
      'NewDecapsulationKey768',
      'NewDecapsulationKey1024',
    ],
    fixed('key-material', 'ML-KEM'),
  ),
];

const EXTENDED: Rule[] = [
  ...paths('x/crypto/curve25519', ['X25519', 'ScalarMult'], fixed('key-agreement', 'X25519')),
  { path: 'x/crypto/curve25519.ScalarBaseMult', read: fixed('key-generation', 'X25519') },
  { path: 'x/crypto/nacl/box.GenerateKey', read: fixed('key-generation', 'X25519') },
  ...paths(
    'x/crypto/nacl/box',
    ['Seal', 'Open', 'Precompute', 'SealAnonymous', 'OpenAnonymous'],
    fixed('key-agreement', 'X25519'),
  ),
  {
    path: 'x/crypto/nacl/sign.GenerateKey',
    read: fixed('key-generation', 'EdDSA', { curve: 'Ed25519' }),
  },
  ...paths(
    'x/crypto/nacl/sign',
    ['Sign', 'Open'],
    fixed('signature', 'EdDSA', { curve: 'Ed25519' }),
  ),
  ...paths('x/crypto/ssh', ['NewSignerFromKey', 'NewSignerFromSigner', 'NewPublicKey'], sshKey),
  ...paths(
    'jwt',
    [
      'ParseRSAPrivateKeyFromPEM',
      'ParseRSAPublicKeyFromPEM',
      'ParseRSAPrivateKeyFromPEMWithPassword',
    ],
    fixed('key-material', 'RSA'),
  ),
  ...paths(
    'jwt',
    ['ParseECPrivateKeyFromPEM', 'ParseECPublicKeyFromPEM'],
    fixed('key-material', 'ECDSA'),
  ),
  ...paths(
    'jwt',
    ['ParseEdPrivateKeyFromPEM', 'ParseEdPublicKeyFromPEM'],
    fixed('key-material', 'EdDSA'),
  ),
  ...paths(
    'jwt',
    ['WithValidMethods', 'GetSigningMethod'],
    named('signature', at(0), joseAlgorithm),
  ),
];

/** go-jose spells JOSE names as Go identifiers: RSA_OAEP_256, ECDH_ES_A128KW, EdDSA. */
function goJoseName(name: string): NameMeaning | undefined {
  if (name === 'RSA1_5') return joseAlgorithm(name);
  return joseAlgorithm(name.replace(/^ECDH_ES_/, 'ECDH-ES+').replace(/_/g, '-'));
}

const SSH_ALGORITHMS: ReadonlyArray<[RegExp, PublicKeyAlgorithm, string?]> = [
  [/^(KeyAlgo|SigAlgo|CertAlgo)RSA/, 'RSA'],
  [/^(KeyAlgo|CertAlgo)DSA/, 'DSA'],
  [/^(KeyAlgo|CertAlgo)(SK)?ECDSA256/, 'ECDSA', 'P-256'],
  [/^(KeyAlgo|CertAlgo)ECDSA384/, 'ECDSA', 'P-384'],
  [/^(KeyAlgo|CertAlgo)ECDSA521/, 'ECDSA', 'P-521'],
  [/^(KeyAlgo|CertAlgo)(SK)?ED25519/, 'EdDSA', 'Ed25519'],
];

const sshAlgorithm: RuleRead = (site) => {
  const name = lastName(site.path);
  const hit = SSH_ALGORITHMS.find(([pattern]) => pattern.test(name));
  if (!hit) return [];
  return [
    { use: { primitive: 'signature', algorithm: hit[1], ...(hit[2] ? { curve: hit[2] } : {}) } },
  ];
};

const JWT_TYPES: Readonly<Record<string, PublicKeyAlgorithm>> = {
  SigningMethodRSA: 'RSA',
  SigningMethodRSAPSS: 'RSA',
  SigningMethodECDSA: 'ECDSA',
  SigningMethodEd25519: 'EdDSA',
};

const jwtMethod: RuleRead = (site) => {
  const name = lastName(site.path);
  const family = own(JWT_TYPES, name);
  if (family) return [{ use: { primitive: 'signature', algorithm: family } }];
  if (name === 'SigningMethodHMAC') return [{ symmetric: { algorithm: 'HMAC', kind: 'mac' } }];
  return emissionsOf(joseAlgorithm(name.replace(/^SigningMethod/, '')), 'signature');
};

const x509Algorithm: RuleRead = (site) => {
  const name = lastName(site.path);
  if (name === 'PureEd25519')
    return [{ use: { primitive: 'signature', algorithm: 'EdDSA', curve: 'Ed25519' } }];
  if (!/With/.test(name)) return [];
  return emissionsOf(signatureName(name), 'signature');
};

/** Rules for constants referenced anywhere (an argument, a struct field, a type assertion). */
export const GO_REFERENCE_RULES: readonly Rule[] = [
  ...typed(
    [
      'SigningMethodRS256',
      'SigningMethodRS384',
      'SigningMethodRS512',
      'SigningMethodPS256',
      'SigningMethodPS384',
      'SigningMethodPS512',
      'SigningMethodES256',
      'SigningMethodES384',
      'SigningMethodES512',
      'SigningMethodEdDSA',
      'SigningMethodHS256',
      'SigningMethodHS384',
      'SigningMethodHS512',
      'SigningMethodRSA',
      'SigningMethodRSAPSS',
      'SigningMethodECDSA',
      'SigningMethodEd25519',
      'SigningMethodHMAC',
    ],
    /^jwt\.SigningMethod\w+$/,
    jwtMethod,
  ),
  ...typed(
    [
      'RS256',
      'RS384',
      'RS512',
      'PS256',
      'PS384',
      'PS512',
      'ES256',
      'ES384',
      'ES512',
      'EdDSA',
      'RSA1_5',
      'RSA_OAEP',
      'RSA_OAEP_256',
      'ECDH_ES',
      'ECDH_ES_A128KW',
      'ECDH_ES_A192KW',
      'ECDH_ES_A256KW',
      'HS256',
      'HS384',
      'HS512',
    ],
    /^(jose|jwa)\.\w+(\(\))?$/,
    (site) => emissionsOf(goJoseName(lastName(site.path)), 'signature'),
  ),
  ...typed(
    [
      'KeyAlgoRSA',
      'KeyAlgoRSASHA256',
      'KeyAlgoRSASHA512',
      'SigAlgoRSA',
      'SigAlgoRSASHA2256',
      'SigAlgoRSASHA2512',
      'CertAlgoRSAv01',
      'KeyAlgoDSA',
      'KeyAlgoECDSA256',
      'KeyAlgoECDSA384',
      'KeyAlgoECDSA521',
      'KeyAlgoSKECDSA256',
      'KeyAlgoED25519',
      'KeyAlgoSKED25519',
    ],
    /^x\/crypto\/ssh\.\w+$/,
    sshAlgorithm,
  ),
  ...typed(
    [
      'MD5WithRSA',
      'SHA1WithRSA',
      'SHA256WithRSA',
      'SHA384WithRSA',
      'SHA512WithRSA',
      'SHA256WithRSAPSS',
      'SHA384WithRSAPSS',
      'SHA512WithRSAPSS',
      'DSAWithSHA1',
      'DSAWithSHA256',
      'ECDSAWithSHA1',
      'ECDSAWithSHA256',
      'ECDSAWithSHA384',
      'ECDSAWithSHA512',
      'PureEd25519',
    ],
    /^crypto\/x509\.\w+$/,
    x509Algorithm,
  ),
];

export const GO_CALL_RULES: readonly Rule[] = [...STANDARD, ...EXTENDED];
