/**
 * Java crypto libraries besides the JCA, as data: BouncyCastle's light-weight API (key pair
 * generators, signers, engines, agreements, key parameters), JJWT (`SignatureAlgorithm.RS256`,
 * `Jwts.SIG.ES256`), Nimbus JOSE+JWT and Auth0 java-jwt.
 */
import { joseAlgorithm, type NameMeaning } from '../engine/names.js';
import {
  argValue,
  at,
  emissionsOf,
  fixed,
  named,
  type Rule,
  type RuleRead,
  refineReceiver,
  symmetricFixed,
} from '../engine/rules.js';
import { lastName, numberOf, type Value } from '../engine/values.js';
import type { PublicKeyAlgorithm } from '../types.js';
import { javaCurve } from './api-jca.js';
import { typeName } from './reader.js';

type Fixed = [readonly string[], Parameters<typeof fixed>[0], PublicKeyAlgorithm, string?];

const BOUNCY_CASTLE: readonly Fixed[] = [
  [['RSAKeyPairGenerator'], 'key-generation', 'RSA'],
  [['ECKeyPairGenerator'], 'key-generation', 'ECDSA'],
  [['DSAKeyPairGenerator'], 'key-generation', 'DSA'],
  [['DHKeyPairGenerator', 'DHBasicKeyPairGenerator'], 'key-generation', 'DH'],
  [['Ed25519KeyPairGenerator'], 'key-generation', 'EdDSA', 'Ed25519'],
  [['Ed448KeyPairGenerator'], 'key-generation', 'EdDSA', 'Ed448'],
  [['X25519KeyPairGenerator'], 'key-generation', 'X25519'],
  [['X448KeyPairGenerator'], 'key-generation', 'X448'],
  [['ECDSASigner', 'ECDSAVerifier', 'SM2Signer'], 'signature', 'ECDSA'],
  [['DSASigner'], 'signature', 'DSA'],
  [
    ['RSADigestSigner', 'PSSSigner', 'ISO9796d2Signer', 'RSASSASigner', 'RSASSAVerifier'],
    'signature',
    'RSA',
  ],
  [['Ed25519Signer', 'Ed25519ctxSigner', 'Ed25519phSigner'], 'signature', 'EdDSA', 'Ed25519'],
  [['Ed448Signer'], 'signature', 'EdDSA', 'Ed448'],
  [
    ['ECDHBasicAgreement', 'ECDHCBasicAgreement', 'ECDHUnifiedAgreement', 'ECMQVBasicAgreement'],
    'key-agreement',
    'ECDH',
  ],
  [['DHBasicAgreement', 'DHAgreement'], 'key-agreement', 'DH'],
  [['X25519Agreement', 'XDHBasicAgreement'], 'key-agreement', 'X25519'],
  [['X448Agreement'], 'key-agreement', 'X448'],
  [['RSAKeyParameters', 'RSAPrivateCrtKeyParameters'], 'key-material', 'RSA'],
  [['ECPublicKeyParameters', 'ECPrivateKeyParameters'], 'key-material', 'ECDSA'],
  [
    ['Ed25519PrivateKeyParameters', 'Ed25519PublicKeyParameters'],
    'key-material',
    'EdDSA',
    'Ed25519',
  ],
  [['X25519PrivateKeyParameters', 'X25519PublicKeyParameters'], 'key-material', 'X25519'],
  [['RSAEncrypter', 'RSADecrypter'], 'encryption', 'RSA'],
  [['ECDHEncrypter', 'ECDHDecrypter'], 'key-agreement', 'ECDH'],
  [['X25519Encrypter', 'X25519Decrypter'], 'key-agreement', 'X25519'],
];

/** Signers that take an RSA engine: the engine inside them is part of the signature. */
const RSA_SIGNERS = /^(PSSSigner|ISO9796d2Signer|GenericSigner|X931Signer)$/;

const rsaEngine: RuleRead = (site) => {
  const holder = site.node.parent?.type === 'argument_list' ? site.node.parent.parent : null;
  if (
    holder?.type === 'object_creation_expression' &&
    RSA_SIGNERS.test(typeName(holder.childForFieldName('type')) ?? '')
  ) {
    return [{ use: { primitive: 'signature', algorithm: 'RSA' } }];
  }
  return [{ use: { primitive: 'encryption', algorithm: 'RSA' } }];
};

/** `new RSAKeyGenerationParameters(e, random, 2048, 80)`: the strength is the third argument. */
function bcSize(value: Value, ctx: Parameters<RuleRead>[1]): number | undefined {
  if (value.kind !== 'api' || !/^new RSAKeyGenerationParameters\(\)$/.test(value.path))
    return undefined;
  const call = value.calls[value.calls.length - 1];
  const args = call?.childForFieldName('arguments');
  const third = args?.namedChildren.filter((node) => node && node.type !== 'comment')[2];
  return third ? numberOf(ctx.value(third)) : undefined;
}

/** JJWT, Nimbus and go-style constant names: RS256, RSA_OAEP_256, ECDH_ES_A128KW, EdDSA. */
export function javaJoseName(name: string): NameMeaning | undefined {
  if (name === 'RSA1_5') return joseAlgorithm(name);
  return joseAlgorithm(name.replace(/^ECDH_ES_/, 'ECDH-ES+').replace(/_/g, '-'));
}

const joseConstant: RuleRead = (site) =>
  emissionsOf(javaJoseName(lastName(site.path)), 'signature');

const jjwtKeyPair: RuleRead = (site) => {
  const name = /^Jwts\.SIG\.(\w+)\.keyPair$/.exec(site.path)?.[1] ?? '';
  return emissionsOf(javaJoseName(name), 'key-generation');
};

const AUTH0: ReadonlyArray<[string, PublicKeyAlgorithm, string?]> = [
  ['RSA256', 'RSA'],
  ['RSA384', 'RSA'],
  ['RSA512', 'RSA'],
  ['ECDSA256', 'ECDSA', 'P-256'],
  ['ECDSA384', 'ECDSA', 'P-384'],
  ['ECDSA512', 'ECDSA', 'P-521'],
];

/** Nimbus `new ECKeyGenerator(Curve.P_256)` and `new OctetKeyPairGenerator(Curve.Ed25519)`. */
const nimbusOctet: RuleRead = (site, ctx) => {
  const curve = javaCurve(argValue(site, ctx, at(0)), ctx);
  if (curve === 'X25519' || curve === 'X448')
    return [{ use: { primitive: 'key-generation', algorithm: curve } }];
  return [
    { use: { primitive: 'key-generation', algorithm: 'EdDSA', ...(curve ? { curve } : {}) } },
  ];
};

export const JAVA_LIBRARY_RULES: readonly Rule[] = [
  ...BOUNCY_CASTLE.flatMap(([names, primitive, algorithm, curve]) =>
    names.map((name) => ({
      path: `new ${name}`,
      read: fixed(primitive, algorithm, curve ? { curve } : {}),
    })),
  ),
  ...['RSAEngine', 'RSABlindedEngine'].map((name) => ({ path: `new ${name}`, read: rsaEngine })),
  {
    path: 'new RSAKeyPairGenerator().init',
    read: refineReceiver({ keySize: { ...at(0), read: bcSize } }),
  },
  {
    path: 'new ECKeyPairGenerator().init',
    read: refineReceiver({ curve: { ...at(0), read: (v, ctx) => javaCurve(v, ctx) } }),
  },
  { path: 'Keys.keyPairFor', read: named('key-generation', at(0), javaJoseName) },
  { path: 'Keys.hmacShaKeyFor', read: symmetricFixed('HMAC', 'mac') },
  { path: /^Jwts\.SIG\.\w+\.keyPair$/, method: 'keyPair', read: jjwtKeyPair },
  ...AUTH0.map(([name, algorithm, curve]) => ({
    path: `Algorithm.${name}`,
    read: fixed('signature', algorithm, curve ? { curve } : {}),
  })),
  ...['HMAC256', 'HMAC384', 'HMAC512'].map((name) => ({
    path: `Algorithm.${name}`,
    read: symmetricFixed(`HMAC-SHA-${name.slice(4)}`, 'mac'),
  })),
  { path: 'new RSAKeyGenerator', read: fixed('key-generation', 'RSA', { keySize: at(0) }) },
  {
    path: 'new ECKeyGenerator',
    read: fixed('key-generation', 'ECDSA', {
      curve: { ...at(0), read: (v, ctx) => javaCurve(v, ctx) },
    }),
  },
  { path: 'new OctetKeyPairGenerator', read: nimbusOctet },
];

const JOSE_CONSTANTS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'ES256K',
  'EdDSA',
  'Ed25519',
  'RSA1_5',
  'RSA_OAEP',
  'RSA_OAEP_256',
  'RSA_OAEP_384',
  'RSA_OAEP_512',
  'ECDH_ES',
  'ECDH_ES_A128KW',
  'ECDH_ES_A192KW',
  'ECDH_ES_A256KW',
  'HS256',
  'HS384',
  'HS512',
];

/** Constants referenced anywhere: `SignatureAlgorithm.RS256`, `Jwts.SIG.ES256`, `JWSAlgorithm.PS256`. */
export const JAVA_REFERENCE_RULES: readonly Rule[] = JOSE_CONSTANTS.map((method) => ({
  path: /^(SignatureAlgorithm|Jwts\.SIG|Jwts\.KEY|JWSAlgorithm|JWEAlgorithm)\.\w+$/,
  method,
  read: joseConstant,
}));
