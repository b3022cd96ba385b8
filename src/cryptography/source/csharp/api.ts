/**
 * The C# crypto APIs the detector knows, as data: System.Security.Cryptography, BouncyCastle's
 * C# light-weight API, and Microsoft.IdentityModel.Tokens (JWT). Paths are fully qualified;
 * `bare` says how many trailing segments name the API without its namespace (`RSA.Create`).
 */
import { PathTable } from '../engine/path-table.js';
import type {
  ApiRule,
  ApiTables,
  KeyType,
  KnownValue,
  MethodRule,
  Recorded,
} from '../engine/rules.js';
import { methodsByName } from '../engine/rules.js';
import type { PublicKeyAlgorithm } from '../types.js';

const SSC = 'System.Security.Cryptography';
const BC = 'Org.BouncyCastle.Crypto';
const TOKENS = 'Microsoft.IdentityModel.Tokens';

function api(namespace: string, name: string, rule: Omit<ApiRule, 'path' | 'bare'>): ApiRule {
  return { path: `${namespace}.${name}`, bare: name.split('.').length, ...rule };
}

const SIZE0 = [{ arg: { index: 0, keyword: 'keySizeInBits' }, read: 'key-size' }] as const;
const CURVE0 = [{ arg: { index: 0, keyword: 'curve' }, read: 'curve' }] as const;

/** Key objects: created by a factory or constructor, sized by the first argument. */
function keyFactories(): ApiRule[] {
  const rules: ApiRule[] = [];
  const sized: [string, PublicKeyAlgorithm][] = [
    ['RSA', 'RSA'],
    ['RSACryptoServiceProvider', 'RSA'],
    ['RSACng', 'RSA'],
    ['RSAOpenSsl', 'RSA'],
    ['DSA', 'DSA'],
    ['DSACryptoServiceProvider', 'DSA'],
    ['DSACng', 'DSA'],
    ['DSAOpenSsl', 'DSA'],
  ];
  for (const [type, algorithm] of sized) {
    const member = type === 'RSA' || type === 'DSA' ? `${type}.Create` : `${type}.new`;
    rules.push(
      api(SSC, member, { primitive: 'key-generation', algorithm, args: SIZE0, returnsKey: true }),
    );
  }
  const curved: [string, PublicKeyAlgorithm][] = [
    ['ECDsa.Create', 'ECDSA'],
    ['ECDsaCng.new', 'ECDSA'],
    ['ECDsaOpenSsl.new', 'ECDSA'],
    ['ECDiffieHellman.Create', 'ECDH'],
    ['ECDiffieHellmanCng.new', 'ECDH'],
    ['ECDiffieHellmanOpenSsl.new', 'ECDH'],
  ];
  for (const [member, algorithm] of curved) {
    const args = [...CURVE0, { arg: { index: 0 }, read: 'key-size' }] as const;
    rules.push(
      api(SSC, member, { primitive: 'key-generation', algorithm, args, returnsKey: true }),
    );
  }
  return rules;
}

function recorded(namespace: string, members: string[], record: Recorded): ApiRule[] {
  return members.map((member) => api(namespace, member, { records: record }));
}

/** Hashes, MACs, ciphers and KDFs of System.Security.Cryptography: algorithms, not findings. */
function symmetric(): ApiRule[] {
  const rules: ApiRule[] = [];
  const hashes: [string, string][] = [
    ['MD5', 'MD5'],
    ['SHA1', 'SHA-1'],
    ['SHA256', 'SHA-256'],
    ['SHA384', 'SHA-384'],
    ['SHA512', 'SHA-512'],
    ['SHA3_256', 'SHA3-256'],
  ];
  for (const [type, algorithm] of hashes) {
    const members = [
      `${type}.Create`,
      `${type}.HashData`,
      `${type}Managed.new`,
      `${type}CryptoServiceProvider.new`,
    ];
    rules.push(...recorded(SSC, members, { algorithm, kind: 'hash' }));
    const mac = `HMAC${type}`;
    rules.push(
      ...recorded(SSC, [`${mac}.new`, `${mac}.HashData`], {
        algorithm: `HMAC-${algorithm.replace('-', '')}`,
        kind: 'mac',
      }),
    );
  }
  rules.push(
    ...recorded(
      SSC,
      [
        'Aes.Create',
        'AesManaged.new',
        'AesCryptoServiceProvider.new',
        'AesCng.new',
        'RijndaelManaged.new',
        'Rijndael.Create',
      ],
      { algorithm: 'AES', kind: 'block-cipher' },
    ),
    ...recorded(SSC, ['AesGcm.new'], { algorithm: 'AES-GCM', kind: 'ae' }),
    ...recorded(SSC, ['AesCcm.new'], { algorithm: 'AES-CCM', kind: 'ae' }),
    ...recorded(SSC, ['ChaCha20Poly1305.new'], { algorithm: 'ChaCha20-Poly1305', kind: 'ae' }),
    ...recorded(SSC, ['TripleDES.Create', 'TripleDESCryptoServiceProvider.new'], {
      algorithm: '3DES',
      kind: 'block-cipher',
    }),
    ...recorded(SSC, ['DES.Create', 'DESCryptoServiceProvider.new'], {
      algorithm: 'DES',
      kind: 'block-cipher',
    }),
    ...recorded(SSC, ['Rfc2898DeriveBytes.new', 'Rfc2898DeriveBytes.Pbkdf2'], {
      algorithm: 'PBKDF2',
      kind: 'kdf',
    }),
    ...recorded(SSC, ['HKDF.DeriveKey', 'HKDF.Extract', 'HKDF.Expand'], {
      algorithm: 'HKDF',
      kind: 'kdf',
    }),
  );
  return rules;
}

/** Other System.Security.Cryptography uses: certificate requests, key parameter structs. */
function systemOther(): ApiRule[] {
  const parameters: [string, PublicKeyAlgorithm][] = [
    ['RSAParameters', 'RSA'],
    ['ECParameters', 'ECDSA'],
    ['DSAParameters', 'DSA'],
  ];
  return [
    ...parameters.map(([type, algorithm]) =>
      api(SSC, `${type}.new`, { algorithm, returnsKey: true, material: true }),
    ),
    api(`${SSC}.X509Certificates`, 'CertificateRequest.new', {
      primitive: 'signature',
      algorithm: 'ECDSA',
      args: [
        { arg: { index: 1, keyword: 'key' }, read: 'key' },
        { arg: { index: 3, keyword: 'padding' }, read: 'known' },
      ],
    }),
  ];
}

/** BouncyCastle's light-weight API: generators, signers, engines, agreements, key parameters. */
function bouncyCastle(): ApiRule[] {
  const simple = (
    ns: string,
    member: string,
    primitive: ApiRule['primitive'],
    algorithm: PublicKeyAlgorithm,
    extra: Partial<ApiRule> = {},
  ) => api(`${BC}.${ns}`, member, { primitive, algorithm, returnsKey: true, ...extra });
  const keyType = [{ arg: { index: 0 }, read: 'key-type', required: true }] as const;
  return [
    simple('Generators', 'RsaKeyPairGenerator.new', 'key-generation', 'RSA'),
    simple('Generators', 'ECKeyPairGenerator.new', 'key-generation', 'ECDSA', {
      args: [{ arg: { index: 0 }, read: 'key-type' }],
    }),
    simple('Generators', 'DsaKeyPairGenerator.new', 'key-generation', 'DSA'),
    simple('Generators', 'DHKeyPairGenerator.new', 'key-agreement', 'DH'),
    simple('Generators', 'Ed25519KeyPairGenerator.new', 'key-generation', 'EdDSA', {
      curve: 'Ed25519',
    }),
    simple('Generators', 'Ed448KeyPairGenerator.new', 'key-generation', 'EdDSA', {
      curve: 'Ed448',
    }),
    simple('Generators', 'X25519KeyPairGenerator.new', 'key-agreement', 'X25519'),
    simple('Generators', 'X448KeyPairGenerator.new', 'key-agreement', 'X448'),
    simple('Parameters', 'RsaKeyGenerationParameters.new', 'key-generation', 'RSA', {
      args: [{ arg: { index: 2 }, read: 'key-size' }],
    }),
    simple('Signers', 'RsaDigestSigner.new', 'signature', 'RSA'),
    simple('Signers', 'PssSigner.new', 'signature', 'RSA'),
    simple('Signers', 'Iso9796d2Signer.new', 'signature', 'RSA'),
    simple('Signers', 'ECDsaSigner.new', 'signature', 'ECDSA'),
    simple('Signers', 'DsaSigner.new', 'signature', 'DSA'),
    simple('Signers', 'DsaDigestSigner.new', 'signature', 'DSA', {
      args: [{ arg: { index: 0 }, read: 'key' }],
    }),
    simple('Signers', 'Ed25519Signer.new', 'signature', 'EdDSA', { curve: 'Ed25519' }),
    simple('Signers', 'Ed448Signer.new', 'signature', 'EdDSA', { curve: 'Ed448' }),
    simple('Engines', 'RsaEngine.new', 'encryption', 'RSA'),
    simple('Engines', 'RsaBlindedEngine.new', 'encryption', 'RSA'),
    simple('Encodings', 'OaepEncoding.new', 'encryption', 'RSA'),
    simple('Encodings', 'Pkcs1Encoding.new', 'encryption', 'RSA'),
    simple('Agreement', 'ECDHBasicAgreement.new', 'key-agreement', 'ECDH'),
    simple('Agreement', 'ECDHCBasicAgreement.new', 'key-agreement', 'ECDH'),
    simple('Agreement', 'DHBasicAgreement.new', 'key-agreement', 'DH'),
    simple('Agreement', 'X25519Agreement.new', 'key-agreement', 'X25519'),
    simple('Agreement', 'X448Agreement.new', 'key-agreement', 'X448'),
    simple('Parameters', 'RsaKeyParameters.new', 'key-material', 'RSA'),
    simple('Parameters', 'RsaPrivateCrtKeyParameters.new', 'key-material', 'RSA'),
    simple('Parameters', 'ECPrivateKeyParameters.new', 'key-material', 'ECDSA'),
    simple('Parameters', 'ECPublicKeyParameters.new', 'key-material', 'ECDSA'),
    simple('Parameters', 'Ed25519PrivateKeyParameters.new', 'key-material', 'EdDSA', {
      curve: 'Ed25519',
    }),
    simple('Parameters', 'Ed25519PublicKeyParameters.new', 'key-material', 'EdDSA', {
      curve: 'Ed25519',
    }),
    simple('Parameters', 'X25519PrivateKeyParameters.new', 'key-material', 'X25519'),
    api('Org.BouncyCastle.Security', 'GeneratorUtilities.GetKeyPairGenerator', {
      primitive: 'key-generation',
      args: keyType,
      returnsKey: true,
    }),
    api('Org.BouncyCastle.Security', 'SignerUtilities.GetSigner', {
      primitive: 'signature',
      args: [{ arg: { index: 0 }, read: 'signature', required: true }],
      returnsKey: true,
    }),
    api('Org.BouncyCastle.Security', 'CipherUtilities.GetCipher', {
      primitive: 'encryption',
      args: [{ arg: { index: 0 }, read: 'cipher', required: true }],
      returnsKey: true,
    }),
    api('Org.BouncyCastle.Security', 'AgreementUtilities.GetBasicAgreement', {
      primitive: 'key-agreement',
      args: keyType,
      returnsKey: true,
    }),
  ];
}

/** Microsoft.IdentityModel.Tokens: JWT signing and encryption credentials and keys. */
function identityModel(): ApiRule[] {
  const alg = (index: number, name: string) =>
    [{ arg: { index, name }, read: 'jwt', required: true }] as const;
  return [
    api(TOKENS, 'RsaSecurityKey.new', {
      primitive: 'key-material',
      algorithm: 'RSA',
      returnsKey: true,
    }),
    api(TOKENS, 'ECDsaSecurityKey.new', {
      primitive: 'key-material',
      algorithm: 'ECDSA',
      returnsKey: true,
    }),
    api(TOKENS, 'SigningCredentials.new', { primitive: 'signature', args: alg(1, 'algorithm') }),
    api(TOKENS, 'EncryptingCredentials.new', { primitive: 'encryption', args: alg(1, 'alg') }),
  ];
}

const CALLS: ApiRule[] = [
  ...keyFactories(),
  ...symmetric(),
  ...systemOther(),
  ...bouncyCastle(),
  ...identityModel(),
];

const SIGN_FAMILIES: PublicKeyAlgorithm[] = ['RSA', 'ECDSA', 'DSA', 'EdDSA'];
const AGREE_FAMILIES: PublicKeyAlgorithm[] = ['ECDH', 'DH', 'X25519', 'X448'];

function methods(names: string[], rule: Omit<MethodRule, 'method'>): MethodRule[] {
  return names.map((method) => ({ method, ...rule }));
}

const METHODS: MethodRule[] = [
  ...methods(
    [
      'SignData',
      'SignHash',
      'TrySignData',
      'TrySignHash',
      'VerifyData',
      'VerifyHash',
      'GenerateSignature',
      'VerifySignature',
    ],
    { primitive: 'signature', families: SIGN_FAMILIES },
  ),
  ...methods(['Encrypt', 'Decrypt', 'TryEncrypt', 'TryDecrypt', 'ProcessBlock'], {
    primitive: 'encryption',
    families: ['RSA'],
  }),
  ...methods(
    [
      'ImportParameters',
      'ImportFromPem',
      'ImportFromEncryptedPem',
      'ImportPkcs8PrivateKey',
      'ImportEncryptedPkcs8PrivateKey',
      'ImportSubjectPublicKeyInfo',
      'FromXmlString',
      'ImportCspBlob',
      'ExportParameters',
      'ExportPkcs8PrivateKey',
      'ExportPkcs8PrivateKeyPem',
      'ExportSubjectPublicKeyInfo',
      'ExportSubjectPublicKeyInfoPem',
      'ToXmlString',
    ],
    { primitive: 'key-material' },
  ),
  ...methods(
    [
      'ImportRSAPrivateKey',
      'ImportRSAPublicKey',
      'ExportRSAPrivateKey',
      'ExportRSAPublicKey',
      'ExportRSAPrivateKeyPem',
      'ExportRSAPublicKeyPem',
    ],
    { primitive: 'key-material', algorithm: 'RSA', anyReceiver: true },
  ),
  ...methods(['ImportECPrivateKey', 'ExportECPrivateKey', 'ExportECPrivateKeyPem'], {
    primitive: 'key-material',
    families: ['ECDSA', 'ECDH'],
    anyReceiver: true,
    algorithm: undefined,
  }),
  ...methods(['GetRSAPrivateKey', 'GetRSAPublicKey'], {
    primitive: 'key-material',
    algorithm: 'RSA',
    anyReceiver: true,
    returnsKey: true,
  }),
  ...methods(['GetECDsaPrivateKey', 'GetECDsaPublicKey'], {
    primitive: 'key-material',
    algorithm: 'ECDSA',
    anyReceiver: true,
    returnsKey: true,
  }),
  ...methods(['GetDSAPrivateKey', 'GetDSAPublicKey'], {
    primitive: 'key-material',
    algorithm: 'DSA',
    anyReceiver: true,
    returnsKey: true,
  }),
  ...methods(['GetECDiffieHellmanPrivateKey', 'GetECDiffieHellmanPublicKey'], {
    primitive: 'key-material',
    algorithm: 'ECDH',
    anyReceiver: true,
    returnsKey: true,
  }),
  ...methods(
    [
      'DeriveKeyMaterial',
      'DeriveKeyFromHash',
      'DeriveKeyFromHmac',
      'DeriveKeyTls',
      'DeriveRawSecretAgreement',
      'CalculateAgreement',
    ],
    { primitive: 'key-agreement', families: AGREE_FAMILIES },
  ),
  ...methods(['DeriveKeyMaterial'], {
    primitive: 'key-agreement',
    algorithm: 'ECDH',
    anyReceiver: true,
  }),
  ...methods(['KeySize'], {
    primitive: 'key-generation',
    families: ['RSA', 'DSA', 'ECDSA', 'ECDH'],
    args: [{ arg: { index: 0 }, read: 'key-size' }],
  }),
  ...methods(['GenerateKey'], {
    primitive: 'key-generation',
    families: ['ECDSA', 'ECDH'],
    args: CURVE0,
  }),
];

function known(
  namespace: string,
  name: string,
  value: Omit<KnownValue, 'path' | 'bare'>,
): KnownValue {
  return { path: `${namespace}.${name}`, bare: 2, ...value };
}

function securityAlgorithms(): KnownValue[] {
  const values: KnownValue[] = [];
  for (const bits of ['256', '384', '512']) {
    const curve = { '256': 'P-256', '384': 'P-384', '512': 'P-521' }[bits];
    for (const suffix of ['', 'Signature']) {
      values.push(
        known(TOKENS, `SecurityAlgorithms.RsaSha${bits}${suffix}`, {
          algorithm: 'RSA',
          standalone: 'signature',
        }),
      );
      values.push(
        known(TOKENS, `SecurityAlgorithms.RsaSsaPssSha${bits}${suffix}`, {
          algorithm: 'RSA',
          standalone: 'signature',
        }),
      );
      values.push(
        known(TOKENS, `SecurityAlgorithms.EcdsaSha${bits}${suffix}`, {
          algorithm: 'ECDSA',
          curve,
          standalone: 'signature',
        }),
      );
    }
  }
  for (const name of ['RsaOAEP', 'RsaPKCS1', 'RsaOaepKeyWrap', 'RsaV15KeyWrap']) {
    values.push(
      known(TOKENS, `SecurityAlgorithms.${name}`, { algorithm: 'RSA', standalone: 'encryption' }),
    );
  }
  for (const name of ['EcdhEs', 'EcdhEsA128kw', 'EcdhEsA192kw', 'EcdhEsA256kw']) {
    values.push(
      known(TOKENS, `SecurityAlgorithms.${name}`, {
        algorithm: 'ECDH',
        standalone: 'key-agreement',
      }),
    );
  }
  return values;
}

function paddings(): KnownValue[] {
  const encryption = [
    'Pkcs1',
    'OaepSHA1',
    'OaepSHA256',
    'OaepSHA384',
    'OaepSHA512',
    'OaepSHA3_256',
  ];
  return [
    ...encryption.map((name) =>
      known(SSC, `RSAEncryptionPadding.${name}`, { algorithm: 'RSA', hint: 'encryption' }),
    ),
    ...['Pkcs1', 'Pss'].map((name) =>
      known(SSC, `RSASignaturePadding.${name}`, { algorithm: 'RSA', hint: 'signature' }),
    ),
  ];
}

const KNOWN: KnownValue[] = [...securityAlgorithms(), ...paddings()];

function keyTypes(): KeyType[] {
  const types: [string, string, PublicKeyAlgorithm][] = [
    [SSC, 'RSA', 'RSA'],
    [SSC, 'RSACryptoServiceProvider', 'RSA'],
    [SSC, 'RSACng', 'RSA'],
    [SSC, 'RSAOpenSsl', 'RSA'],
    [SSC, 'DSA', 'DSA'],
    [SSC, 'DSACryptoServiceProvider', 'DSA'],
    [SSC, 'ECDsa', 'ECDSA'],
    [SSC, 'ECDsaCng', 'ECDSA'],
    [SSC, 'ECDsaOpenSsl', 'ECDSA'],
    [SSC, 'ECDiffieHellman', 'ECDH'],
    [SSC, 'ECDiffieHellmanCng', 'ECDH'],
    [SSC, 'ECDiffieHellmanPublicKey', 'ECDH'],
    [SSC, 'RSAParameters', 'RSA'],
    [SSC, 'ECParameters', 'ECDSA'],
    [SSC, 'DSAParameters', 'DSA'],
    [TOKENS, 'RsaSecurityKey', 'RSA'],
    [TOKENS, 'ECDsaSecurityKey', 'ECDSA'],
    [`${BC}.Parameters`, 'RsaKeyParameters', 'RSA'],
    [`${BC}.Parameters`, 'RsaPrivateCrtKeyParameters', 'RSA'],
    [`${BC}.Parameters`, 'ECPrivateKeyParameters', 'ECDSA'],
    [`${BC}.Parameters`, 'ECPublicKeyParameters', 'ECDSA'],
  ];
  return types.map(([namespace, name, algorithm]) => {
    const type: KeyType = { path: `${namespace}.${name}`, bare: 1, algorithm };
    if (namespace === SSC && name.endsWith('Parameters')) type.material = true;
    return type;
  });
}

export const CSHARP_TABLES: ApiTables = {
  calls: new PathTable(CALLS),
  methods: methodsByName(METHODS),
  known: new PathTable(KNOWN),
  types: new PathTable(keyTypes()),
  passthrough: new Set(),
};

/** Words at least one of which a file must contain for the detector to find anything. */
export const CSHARP_KEYWORDS: readonly string[] = [
  ...CALLS.map((rule) => rule.path.split('.').at(-2) ?? rule.path),
  ...keyTypes().map((type) => type.path.split('.').at(-1) ?? ''),
  ...METHODS.filter((rule) => rule.anyReceiver).map((rule) => rule.method),
  ...KNOWN.map((value) => value.path.split('.').at(-2) ?? ''),
];
