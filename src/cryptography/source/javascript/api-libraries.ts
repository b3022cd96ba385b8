/**
 * The npm crypto libraries JavaScript developers use besides node:crypto, as data:
 * node-forge, jsrsasign, elliptic, jsonwebtoken, jose, @nestjs/jwt, express-jwt, passport-jwt,
 * tweetnacl and @noble/curves.
 */
import {
  cipherName,
  curveName,
  hashName,
  joseAlgorithm,
  type NameMeaning,
  signatureName,
} from '../engine/names.js';
import {
  argValue,
  at,
  emissionsOf,
  fixed,
  named,
  namesIn,
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

function paths(names: readonly string[], read: RuleRead): Rule[] {
  return names.map((path) => ({ path, read }));
}

function patterns(method: string, path: RegExp, read: RuleRead): Rule {
  return { path, method, read };
}

/** jsrsasign and JOSE headers may be objects or JSON text (`'{"alg":"RS256"}'`). */
function headerAlgorithm(value: Value | undefined, ctx: RuleContext): string | undefined {
  if (value?.kind === 'object') return stringOf(propertyValue(value, 'alg', ctx));
  const text = stringOf(value);
  if (!text || text.length > 2000) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && 'alg' in parsed && typeof parsed.alg === 'string') {
      return parsed.alg;
    }
  } catch {
    return undefined;
  }
  return undefined;
}

const jwsSign: RuleRead = (site, ctx) => {
  const name =
    stringOf(argValue(site, ctx, at(0))) ?? headerAlgorithm(argValue(site, ctx, at(1)), ctx);
  return name ? emissionsOf(joseAlgorithm(name), 'signature') : [];
};

function firstArgument(call: SyntaxNode | undefined): SyntaxNode | undefined {
  const args = call?.childForFieldName('arguments');
  return args ? namedChildren(args).find((node) => node.type !== 'comment') : undefined;
}

/** The curve given to `new EC('secp256k1')` for a call on the instance or one of its keys. */
function instanceCurve(
  site: { receiverValue?: Value | undefined },
  ctx: RuleContext,
): string | undefined {
  const receiver = site.receiverValue;
  if (receiver?.kind !== 'api') return undefined;
  const curve = firstArgument(receiver.calls[0]);
  const name = curve ? stringOf(ctx.value(curve)) : undefined;
  return name ? curveName(name) : undefined;
}

function onInstance(
  primitive: Parameters<typeof fixed>[0],
  algorithm: PublicKeyAlgorithm,
): RuleRead {
  return (site, ctx) => {
    const curve = instanceCurve(site, ctx);
    return [{ use: { primitive, algorithm, ...(curve ? { curve } : {}) } }];
  };
}

const ellipticContext: RuleRead = (site, ctx) => {
  const curve = namesIn(argValue(site, ctx, at(0)), ctx)[0];
  const name = curve ? curveName(curve) : undefined;
  if (name === 'X25519') return [{ use: { primitive: 'key-agreement', algorithm: 'X25519' } }];
  return [
    { use: { primitive: 'signature', algorithm: 'ECDSA', ...(name ? { curve: name } : {}) } },
  ];
};

const ELLIPTIC_RULES: Rule[] = [
  { path: 'new elliptic.ec', read: ellipticContext },
  { path: 'new elliptic.eddsa', read: fixed('signature', 'EdDSA', { curve: at(0) }) },
  patterns(
    'genKeyPair',
    /^new elliptic\.ec\(\)\.genKeyPair$/,
    onInstance('key-generation', 'ECDSA'),
  ),
  patterns('keyPair', /^new elliptic\.ec\(\)\.keyPair$/, onInstance('key-generation', 'ECDSA')),
  patterns(
    'keyFromPrivate',
    /^new elliptic\.(ec|eddsa)\(\)\.keyFromPrivate$/,
    onInstance('key-material', 'ECDSA'),
  ),
  patterns(
    'keyFromPublic',
    /^new elliptic\.ec\(\)\.keyFromPublic$/,
    onInstance('key-material', 'ECDSA'),
  ),
  patterns(
    'keyFromSecret',
    /^new elliptic\.eddsa\(\)\.keyFromSecret$/,
    onInstance('key-material', 'EdDSA'),
  ),
  patterns('sign', /^new elliptic\.ec\(\)(\..*\(\))?\.sign$/, onInstance('signature', 'ECDSA')),
  patterns('verify', /^new elliptic\.ec\(\)(\..*\(\))?\.verify$/, onInstance('signature', 'ECDSA')),
  patterns('sign', /^new elliptic\.eddsa\(\)(\..*\(\))?\.sign$/, onInstance('signature', 'EdDSA')),
  patterns(
    'verify',
    /^new elliptic\.eddsa\(\)(\..*\(\))?\.verify$/,
    onInstance('signature', 'EdDSA'),
  ),
  patterns('derive', /^new elliptic\.ec\(\)\..*\(\)\.derive$/, onInstance('key-agreement', 'ECDH')),
];

/** node-forge signs and encrypts only with RSA keys, so a forge key's sign() is RSA. */
const FORGE_KEY = /^forge\.pki\.(?!ed25519).*\(\)(\.(privateKey|publicKey))?\./;

const forgeByScheme: RuleRead = (site, ctx) => {
  if (!ctx.imports('forge')) return [];
  const scheme = stringOf(argValue(site, ctx, at(1)))?.toUpperCase();
  return scheme === 'RSA-OAEP' || scheme === 'RSAES-PKCS1-V1_5'
    ? [{ use: { primitive: 'encryption', algorithm: 'RSA' } }]
    : [];
};

const forgeDigestSign: RuleRead = (site, ctx) => {
  const digest = argValue(site, ctx, at(0));
  return ctx.imports('forge') && digest?.kind === 'api' && digest.path.startsWith('forge.md.')
    ? [{ use: { primitive: 'signature', algorithm: 'RSA' } }]
    : [];
};

const forgeDigest: RuleRead = (site) => {
  const name = /^forge\.md\.(\w+)\.create$/.exec(site.path)?.[1];
  const hash = name ? hashName(name) : undefined;
  return hash ? [{ symmetric: { algorithm: hash, kind: 'hash' } }] : [];
};

const FORGE_RULES: Rule[] = [
  {
    path: 'forge.pki.rsa.generateKeyPair',
    read: fixed('key-generation', 'RSA', { keySize: [at(0, 'bits'), at(0)] }),
  },
  {
    path: 'forge.pki.rsa.createKeyPairGenerationState',
    read: fixed('key-generation', 'RSA', { keySize: at(0) }),
  },
  ...paths(
    ['forge.pki.rsa.setPublicKey', 'forge.pki.rsa.setPrivateKey'],
    fixed('key-material', 'RSA'),
  ),
  {
    path: 'forge.pki.ed25519.generateKeyPair',
    read: fixed('key-generation', 'EdDSA', { curve: 'Ed25519' }),
  },
  ...paths(
    ['forge.pki.ed25519.sign', 'forge.pki.ed25519.verify'],
    fixed('signature', 'EdDSA', { curve: 'Ed25519' }),
  ),
  patterns('sign', new RegExp(`${FORGE_KEY.source}sign$`), fixed('signature', 'RSA')),
  patterns('verify', new RegExp(`${FORGE_KEY.source}verify$`), fixed('signature', 'RSA')),
  patterns('encrypt', new RegExp(`${FORGE_KEY.source}encrypt$`), fixed('encryption', 'RSA')),
  patterns('decrypt', new RegExp(`${FORGE_KEY.source}decrypt$`), fixed('encryption', 'RSA')),
  ...paths(['*.encrypt', '*.decrypt'], forgeByScheme),
  { path: '*.sign', read: forgeDigestSign },
  patterns('create', /^forge\.md\.\w+\.create$/, forgeDigest),
  ...paths(
    ['forge.cipher.createCipher', 'forge.cipher.createDecipher'],
    symmetricNamed(at(0), cipherName),
  ),
];

const jsrsasignKeyType = (name: string): NameMeaning | undefined =>
  name.toUpperCase() === 'RSA'
    ? { algorithm: 'RSA' }
    : name.toUpperCase() === 'EC'
      ? { algorithm: 'ECDSA' }
      : undefined;

const JSRSASIGN_RULES: Rule[] = [
  {
    path: 'jsrsasign.KEYUTIL.generateKeypair',
    read: named('key-generation', at(0), jsrsasignKeyType, { keySize: at(1), curve: at(1) }),
  },
  {
    path: 'new jsrsasign.KJUR.crypto.Signature',
    read: named('signature', at(0, 'alg'), signatureName),
  },
  { path: 'jsrsasign.KJUR.jws.JWS.sign', read: jwsSign },
  { path: 'jsrsasign.KJUR.jws.JWS.verify', read: named('signature', at(2), joseAlgorithm) },
  {
    path: 'jsrsasign.KJUR.jws.JWS.verifyJWT',
    read: named('signature', at(2, 'alg'), joseAlgorithm),
  },
  {
    path: 'new jsrsasign.KJUR.crypto.ECDSA',
    read: fixed('signature', 'ECDSA', { curve: at(0, 'curve') }),
  },
  { path: 'new jsrsasign.RSAKey', read: fixed('key-material', 'RSA') },
  ...paths(
    ['jsrsasign.KJUR.crypto.Cipher.encrypt', 'jsrsasign.KJUR.crypto.Cipher.decrypt'],
    named('encryption', at(2), (name) => (/^RSA/i.test(name) ? { algorithm: 'RSA' } : undefined)),
  ),
];

const JWT_RULES: Rule[] = [
  { path: 'jsonwebtoken.sign', read: named('signature', at(2, 'algorithm'), joseAlgorithm) },
  { path: 'jsonwebtoken.verify', read: named('signature', at(2, 'algorithms'), joseAlgorithm) },
  {
    path: 'jose.generateKeyPair',
    read: named('key-generation', at(0), joseAlgorithm, {
      keySize: at(1, 'modulusLength'),
      curve: at(1, 'crv'),
    }),
  },
  { path: 'jose.generateSecret', read: symmetricFixed('HMAC', 'mac') },
  ...paths(
    ['jose.importPKCS8', 'jose.importSPKI', 'jose.importX509', 'jose.importJWK'],
    named('key-material', at(1), joseAlgorithm),
  ),
  ...paths(
    ['jose.jwtVerify', 'jose.compactVerify', 'jose.flattenedVerify', 'jose.generalVerify'],
    named('signature', at(2, 'algorithms'), joseAlgorithm),
  ),
  ...paths(
    ['jose.jwtDecrypt', 'jose.compactDecrypt', 'jose.flattenedDecrypt'],
    named('encryption', at(2, 'keyManagementAlgorithms'), joseAlgorithm),
  ),
  patterns(
    'setProtectedHeader',
    /^new jose\.\w+\(\)(\.\w+\(\))*\.setProtectedHeader$/,
    named('signature', at(0, 'alg'), joseAlgorithm),
  ),
  ...paths(
    ['nestjs-jwt.JwtModule.register', 'new nestjs-jwt.JwtService'],
    named(
      'signature',
      [at(0, 'signOptions.algorithm'), at(0, 'verifyOptions.algorithms')],
      joseAlgorithm,
    ),
  ),
  patterns(
    'sign',
    /^new nestjs-jwt\.JwtService\(\)\.sign$/,
    named('signature', at(1, 'algorithm'), joseAlgorithm),
  ),
  patterns(
    'signAsync',
    /^new nestjs-jwt\.JwtService\(\)\.signAsync$/,
    named('signature', at(1, 'algorithm'), joseAlgorithm),
  ),
  patterns(
    'verify',
    /^new nestjs-jwt\.JwtService\(\)\.verify(Async)?$/,
    named('signature', at(1, 'algorithms'), joseAlgorithm),
  ),
  patterns(
    'verifyAsync',
    /^new nestjs-jwt\.JwtService\(\)\.verifyAsync$/,
    named('signature', at(1, 'algorithms'), joseAlgorithm),
  ),
  ...paths(
    ['express-jwt.expressjwt', 'express-jwt', 'new passport-jwt.Strategy'],
    named('signature', at(0, 'algorithms'), joseAlgorithm),
  ),
];

const NACL_RULES: Rule[] = [
  { path: 'nacl.sign.keyPair', read: fixed('key-generation', 'EdDSA', { curve: 'Ed25519' }) },
  ...paths(
    ['nacl.sign.keyPair.fromSeed', 'nacl.sign.keyPair.fromSecretKey'],
    fixed('key-material', 'EdDSA', { curve: 'Ed25519' }),
  ),
  ...paths(
    ['nacl.sign', 'nacl.sign.detached', 'nacl.sign.detached.verify', 'nacl.sign.open'],
    fixed('signature', 'EdDSA', { curve: 'Ed25519' }),
  ),
  { path: 'nacl.box.keyPair', read: fixed('key-generation', 'X25519') },
  ...paths(
    ['nacl.box', 'nacl.box.open', 'nacl.box.before', 'nacl.scalarMult'],
    fixed('key-agreement', 'X25519'),
  ),
  ...paths(['nacl.secretbox', 'nacl.secretbox.open'], symmetricFixed('XSalsa20-Poly1305', 'ae')),
];

const NOBLE_FAMILY: Readonly<Record<string, [PublicKeyAlgorithm, PublicKeyAlgorithm, string]>> = {
  secp256k1: ['ECDSA', 'ECDH', 'secp256k1'],
  p256: ['ECDSA', 'ECDH', 'P-256'],
  p384: ['ECDSA', 'ECDH', 'P-384'],
  p521: ['ECDSA', 'ECDH', 'P-521'],
  ed25519: ['EdDSA', 'X25519', 'Ed25519'],
  ed448: ['EdDSA', 'X448', 'Ed448'],
  x25519: ['X25519', 'X25519', 'X25519'],
};

const NOBLE =
  /^noble(-ed25519|-secp256k1)?\.(?:(\w+)\.)?(utils\.randomPrivateKey|utils\.randomSecretKey|keygen|getPublicKey|sign|signAsync|verify|getSharedSecret)$/;

const nobleCall: RuleRead = (site) => {
  const match = NOBLE.exec(site.path);
  if (!match) return [];
  const curveKey =
    match[2] ??
    (match[1] === '-ed25519' ? 'ed25519' : match[1] === '-secp256k1' ? 'secp256k1' : '');
  const family = own(NOBLE_FAMILY, curveKey);
  if (!family) return [];
  const [signing, agreement, curve] = family;
  const method = match[3] ?? '';
  if (method === 'getSharedSecret')
    return [{ use: { primitive: 'key-agreement', algorithm: agreement, curve } }];
  if (/^(sign|signAsync|verify)$/.test(method))
    return [{ use: { primitive: 'signature', algorithm: signing, curve } }];
  if (method === 'getPublicKey') return [];
  return [{ use: { primitive: 'key-generation', algorithm: signing, curve } }];
};

const NOBLE_RULES: Rule[] = [
  'randomPrivateKey',
  'randomSecretKey',
  'keygen',
  'sign',
  'signAsync',
  'verify',
  'getSharedSecret',
].map((method) => patterns(method, NOBLE, nobleCall));

export const LIBRARY_RULES: readonly Rule[] = [
  ...FORGE_RULES,
  ...JSRSASIGN_RULES,
  ...ELLIPTIC_RULES,
  ...JWT_RULES,
  ...NACL_RULES,
  ...NOBLE_RULES,
];
