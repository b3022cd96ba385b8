/**
 * What the CBOM says about one algorithm: its component name, CycloneDX primitive, parameter set,
 * curve, OID and security levels (docs/quantum.md, "The CBOM").
 *
 * classicalSecurityLevel is NIST SP 800-57 Part 1 Rev. 5, Table 2: RSA, DH and DSA by modulus
 * (1024 → 80, 2048 → 112, 3072 → 128, 7680 → 192, 15360 → 256); elliptic curves by field size
 * (224 → 112, 256 → 128, 384 → 192, 521 → 256; Curve25519 128, Curve448 224 per RFC 7748); block
 * ciphers by key length (3DES 112); hashes by collision resistance, half the digest. Collision-
 * broken hashes (MD2, MD4, MD5, SHA-1) and RC4 get no bit count: any number would overstate them.
 *
 * nistQuantumSecurityLevel is the NIST PQC evaluation category (1 = AES-128 key search, 2 =
 * SHA-256 collision, 3 = AES-192, 4 = SHA-384 collision, 5 = AES-256): 0 for every RSA, DH, DSA
 * and elliptic-curve scheme (Shor), and for whatever is classically below category 1 (3DES, DES,
 * SHA-224, SHA-1, MD5); ML-KEM-512/768/1024 → 1/3/5 (FIPS 203), ML-DSA-44/65/87 → 2/3/5
 * (FIPS 204), SLH-DSA-*-128/192/256 → 1/3/5 (FIPS 205), a hybrid group as its ML-KEM part; AES
 * and other 128/192/256-bit keys → 1/3/5; a hash of 256/384/512 bits → 2/4/5. A post-quantum
 * family without its parameter set gets the family's lowest category (a lower bound). Where the
 * level depends on what the input does not say (an RSA key of unknown size, an HMAC key, a KDF),
 * the level is left out rather than guessed.
 */
import type { CbomMode, CbomPrimitive } from './cbom-types.js';

/** An algorithm component's identity and fixed facts (the writer adds functions and evidence). */
export interface AlgorithmAsset {
  name: string;
  primitive: CbomPrimitive;
  parameterSetIdentifier?: string;
  curve?: string;
  mode?: CbomMode;
  classicalSecurityLevel?: number;
  nistQuantumSecurityLevel?: number;
  oid?: string;
}

/** What a public-key algorithm is used for, as far as the evidence says. */
export type KeyUse = 'signature' | 'encryption' | 'key-agreement' | 'other';

export interface PublicKeyFacts {
  algorithm: string;
  keySize: number | null;
  curve: string | null;
  parameterSet?: string | null | undefined;
  use: KeyUse;
}

/** Names are bounded: a hostile name cannot make a huge bom-ref. */
const MAX_NAME = 200;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it removes
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

/** A name or reference part: trimmed, at most MAX_NAME characters, control characters replaced. */
export function boundedName(text: string | null | undefined): string {
  const trimmed = (text ?? '').trim().replace(CONTROL, '\ufffd');
  return trimmed.length > MAX_NAME ? `${trimmed.slice(0, MAX_NAME)}…` : trimmed;
}

/** SP 800-57 Table 2, IFC and FFC (RSA, DH, DSA): modulus bits → security bits. */
export function modulusSecurity(bits: number): number | undefined {
  if (bits >= 15360) return 256;
  if (bits >= 7680) return 192;
  if (bits >= 3072) return 128;
  if (bits >= 2048) return 112;
  if (bits >= 1024) return 80;
  return undefined;
}

/** SP 800-57 Table 2, ECC: field bits → security bits. */
function fieldSecurity(bits: number): number | undefined {
  if (bits >= 512) return 256;
  if (bits >= 384) return 192;
  if (bits >= 256) return 128;
  if (bits >= 224) return 112;
  if (bits >= 160) return 80;
  return undefined;
}

/** NIST PQC category of a 128/192/256-bit symmetric key. */
export function keySearchCategory(bits: number): number {
  if (bits >= 256) return 5;
  if (bits >= 192) return 3;
  if (bits >= 128) return 1;
  return 0;
}

const CATEGORY_CLASSICAL: Readonly<Record<number, number>> = {
  1: 128,
  2: 128,
  3: 192,
  4: 192,
  5: 256,
};

interface Curve {
  name: string;
  security: number;
  /** X25519 and X448 are their own algorithms; Ed25519 and Ed448 are EdDSA. */
  own?: 'X25519' | 'X448' | 'Ed25519' | 'Ed448';
}

const CURVE_ALIASES: ReadonlyArray<[Curve, readonly string[]]> = [
  [{ name: 'P-192', security: 80 }, ['p192', 'secp192r1', 'prime192v1', 'nistp192', 'nist192p']],
  [{ name: 'P-224', security: 112 }, ['p224', 'secp224r1', 'nistp224', 'nist224p']],
  [{ name: 'P-256', security: 128 }, ['p256', 'secp256r1', 'prime256v1', 'nistp256', 'nist256p']],
  [{ name: 'P-384', security: 192 }, ['p384', 'secp384r1', 'nistp384', 'nist384p']],
  [{ name: 'P-521', security: 256 }, ['p521', 'secp521r1', 'nistp521', 'nist521p']],
  [{ name: 'secp256k1', security: 128 }, ['secp256k1', 'p256k']],
  [{ name: 'brainpoolP256r1', security: 128 }, ['brainpoolp256r1', 'brainpoolp256r1tls13']],
  [{ name: 'brainpoolP384r1', security: 192 }, ['brainpoolp384r1', 'brainpoolp384r1tls13']],
  [{ name: 'brainpoolP512r1', security: 256 }, ['brainpoolp512r1', 'brainpoolp512r1tls13']],
  [{ name: 'SM2', security: 128 }, ['sm2', 'sm2p256v1', 'curvesm2']],
  [{ name: 'Curve25519', security: 128, own: 'X25519' }, ['x25519', 'curve25519']],
  [{ name: 'Curve448', security: 224, own: 'X448' }, ['x448', 'curve448']],
  [{ name: 'Ed25519', security: 128, own: 'Ed25519' }, ['ed25519', 'edwards25519']],
  [{ name: 'Ed448', security: 224, own: 'Ed448' }, ['ed448', 'edwards448']],
];

const CURVES = new Map<string, Curve>(
  CURVE_ALIASES.flatMap(([curve, aliases]) => aliases.map((alias) => [alias, curve] as const)),
);

/** A named curve in the usual spelling (P-256 for secp256r1, prime256v1, nistp256, ...). */
export function curveOf(name: string): Curve | undefined {
  return CURVES.get(name.toLowerCase().replace(/[-_\s]/g, ''));
}

const OID = {
  rsa: '1.2.840.113549.1.1.1',
  dsa: '1.2.840.10040.4.1',
  dh: '1.2.840.113549.1.3.1',
  ecPublicKey: '1.2.840.10045.2.1',
  ecdh: '1.3.132.1.12',
  X25519: '1.3.101.110',
  X448: '1.3.101.111',
  Ed25519: '1.3.101.112',
  Ed448: '1.3.101.113',
} as const;

const ML_KEM_SETS: Readonly<Record<string, { category: number; oid: string }>> = {
  '512': { category: 1, oid: '2.16.840.1.101.3.4.4.1' },
  '768': { category: 3, oid: '2.16.840.1.101.3.4.4.2' },
  '1024': { category: 5, oid: '2.16.840.1.101.3.4.4.3' },
};
const ML_DSA_SETS: Readonly<Record<string, { category: number; oid: string }>> = {
  '44': { category: 2, oid: '2.16.840.1.101.3.4.3.17' },
  '65': { category: 3, oid: '2.16.840.1.101.3.4.3.18' },
  '87': { category: 5, oid: '2.16.840.1.101.3.4.3.19' },
};
/** FIPS 205 parameter sets in the order of their OIDs, 2.16.840.1.101.3.4.3.20 to .31. */
const SLH_DSA_SETS = ['SHA2', 'SHAKE'].flatMap((hash) =>
  ['128s', '128f', '192s', '192f', '256s', '256f'].map((level) => `${hash}-${level}`),
);

/** The TLS hybrid groups (draft-ietf-tls-ecdhe-mlkem): name and their ML-KEM set. */
const HYBRID_GROUPS: Readonly<Record<string, [string, string]>> = {
  x25519mlkem768: ['X25519MLKEM768', '768'],
  secp256r1mlkem768: ['SecP256r1MLKEM768', '768'],
  secp384r1mlkem1024: ['SecP384r1MLKEM1024', '1024'],
  curvesm2mlkem768: ['curveSM2MLKEM768', '768'],
};

function levels(category: number): Pick<AlgorithmAsset, 'classicalSecurityLevel'> & {
  nistQuantumSecurityLevel: number;
} {
  const classical = CATEGORY_CLASSICAL[category];
  return {
    ...(classical !== undefined && { classicalSecurityLevel: classical }),
    nistQuantumSecurityLevel: category,
  };
}

/** ML-KEM, ML-DSA or SLH-DSA, with the set from the name or the one beside it. */
function latticeOrHashAsset(text: string, set: string | undefined): AlgorithmAsset | undefined {
  const kem = /^ML-?KEM(?:[-_]?(512|768|1024))?$/i.exec(text);
  if (kem) {
    const id = kem[1] ?? (set && /^(?:ML-?KEM-?)?(512|768|1024)$/i.exec(set)?.[1]);
    const known = id ? ML_KEM_SETS[id] : undefined;
    if (!id || !known) return { name: 'ML-KEM', primitive: 'kem', ...levels(1) };
    return {
      name: `ML-KEM-${id}`,
      primitive: 'kem',
      parameterSetIdentifier: id,
      ...levels(known.category),
      oid: known.oid,
    };
  }
  const dsa = /^ML-?DSA(?:[-_]?(44|65|87))?$/i.exec(text);
  if (dsa) {
    const id = dsa[1] ?? (set && /^(?:ML-?DSA-?)?(44|65|87)$/i.exec(set)?.[1]);
    const known = id ? ML_DSA_SETS[id] : undefined;
    if (!id || !known) return { name: 'ML-DSA', primitive: 'signature', ...levels(2) };
    return {
      name: `ML-DSA-${id}`,
      primitive: 'signature',
      parameterSetIdentifier: id,
      ...levels(known.category),
      oid: known.oid,
    };
  }
  const slh = /^SLH-?DSA(?:-(SHA2|SHAKE)-(128|192|256)([SF]))?$/i.exec(text);
  if (!slh) return undefined;
  const fromSet = set ? /^(?:SLH-?DSA-)?(SHA2|SHAKE)-(128|192|256)([SF])$/i.exec(set) : null;
  const parts = slh[1] ? slh : fromSet;
  if (!parts) return { name: 'SLH-DSA', primitive: 'signature', ...levels(1) };
  const id = `${parts[1]!.toUpperCase()}-${parts[2]}${parts[3]!.toLowerCase()}`;
  const index = SLH_DSA_SETS.indexOf(id);
  return {
    name: `SLH-DSA-${id}`,
    primitive: 'signature',
    parameterSetIdentifier: id,
    ...levels(keySearchCategory(Number(parts[2]))),
    ...(index >= 0 && { oid: `2.16.840.1.101.3.4.3.${20 + index}` }),
  };
}

/** A hybrid TLS group or a composite signature: as strong as its post-quantum part. */
function hybridAsset(text: string): AlgorithmAsset | undefined {
  const group = HYBRID_GROUPS[text.toLowerCase()];
  if (group) {
    const [name, set] = group;
    return {
      name,
      primitive: 'kem',
      parameterSetIdentifier: set,
      ...levels(ML_KEM_SETS[set]!.category),
    };
  }
  const composite = /^MLDSA(44|65|87)-\S+$/i.exec(text);
  if (!composite) return undefined;
  return {
    name: text,
    primitive: 'signature',
    parameterSetIdentifier: composite[1]!,
    ...levels(ML_DSA_SETS[composite[1]!]!.category),
  };
}

/** A post-quantum or hybrid algorithm named by any of `names`, with the size as its set. */
export function postQuantumAsset(
  names: readonly (string | null | undefined)[],
  keySize: number | null,
): AlgorithmAsset | undefined {
  const texts = names.map((name) => boundedName(name)).filter((name) => name !== '');
  for (const text of texts) {
    const hybrid = hybridAsset(text);
    if (hybrid) return hybrid;
  }
  const sets = [...texts, ...(keySize ? [String(keySize)] : [])];
  for (const text of texts) {
    const family = latticeOrHashAsset(text, undefined);
    if (!family) continue;
    if (family.parameterSetIdentifier) return family;
    for (const set of sets) {
      const withSet = latticeOrHashAsset(text, set);
      if (withSet?.parameterSetIdentifier) return withSet;
    }
    return family;
  }
  return undefined;
}

function validSize(size: number | null): number | undefined {
  return size !== null && Number.isInteger(size) && size > 0 && size <= 1_000_000
    ? size
    : undefined;
}

/** The classical family a name and curve mean (X25519 for ECDH on Curve25519). */
function classicalFamily(text: string, curve: Curve | undefined): string {
  const upper = text.toUpperCase();
  const own = curve?.own;
  if ((own === 'X25519' || own === 'X448') && /^(ECDH|ECDHE|XDH|X25519|X448)$/.test(upper)) {
    return own;
  }
  if ((own === 'Ed25519' || own === 'Ed448') && /^(EDDSA|ECDSA|ED25519|ED448)$/.test(upper)) {
    return own;
  }
  if (upper === 'X25519' || upper === 'X448') return upper;
  if (upper === 'ED25519') return 'Ed25519';
  if (upper === 'ED448') return 'Ed448';
  if (/^(DH|DHE|FFDH|DIFFIE-?HELLMAN)$/.test(upper)) return 'DH';
  if (/^(ECDH|ECDHE)$/.test(upper)) return 'ECDH';
  if (/^(ECDSA|EC)$/.test(upper)) return 'ECDSA';
  if (upper === 'EDDSA') return 'EdDSA';
  if (upper === 'RSA' || upper === 'DSA') return upper;
  return text;
}

function modulusAsset(
  family: string,
  primitive: CbomPrimitive,
  size: number | undefined,
  oid: string,
): AlgorithmAsset {
  const classical = size ? modulusSecurity(size) : undefined;
  return {
    name: size ? `${family}-${size}` : family,
    primitive,
    ...(size && { parameterSetIdentifier: String(size) }),
    ...(classical !== undefined && { classicalSecurityLevel: classical }),
    nistQuantumSecurityLevel: 0,
    oid,
  };
}

function curveAsset(
  family: 'ECDSA' | 'ECDH',
  rawCurve: string | null,
  size: number | undefined,
): AlgorithmAsset {
  const known = rawCurve ? curveOf(rawCurve) : undefined;
  const curve = known?.name ?? (boundedName(rawCurve) || undefined);
  const classical = known?.security ?? (size ? fieldSecurity(size) : undefined);
  const suffix = curve ?? (size ? String(size) : undefined);
  return {
    name: suffix ? `${family}-${suffix}` : family,
    primitive: family === 'ECDSA' ? 'signature' : 'key-agree',
    ...(!curve && size && { parameterSetIdentifier: String(size) }),
    ...(curve && { curve }),
    ...(classical !== undefined && { classicalSecurityLevel: classical }),
    nistQuantumSecurityLevel: 0,
    oid: family === 'ECDSA' ? OID.ecPublicKey : OID.ecdh,
  };
}

const EDWARDS_AND_MONTGOMERY: Readonly<Record<string, AlgorithmAsset>> = {
  X25519: { name: 'X25519', primitive: 'key-agree', curve: 'Curve25519', oid: OID.X25519 },
  X448: { name: 'X448', primitive: 'key-agree', curve: 'Curve448', oid: OID.X448 },
  Ed25519: { name: 'Ed25519', primitive: 'signature', curve: 'Ed25519', oid: OID.Ed25519 },
  Ed448: { name: 'Ed448', primitive: 'signature', curve: 'Ed448', oid: OID.Ed448 },
};

const PRIMITIVE_OF_USE: Readonly<Record<KeyUse, CbomPrimitive>> = {
  signature: 'signature',
  encryption: 'pke',
  'key-agreement': 'key-agree',
  other: 'other',
};

/**
 * A public-key algorithm as the inventory names it (family, curve, size, parameter set). RSA is
 * `pke` unless the evidence is a signature (a key or a key generation can serve either).
 */
export function publicKeyAsset(facts: PublicKeyFacts): AlgorithmAsset {
  const text = boundedName(facts.algorithm) || 'unknown';
  const pq = postQuantumAsset([text, facts.parameterSet], facts.keySize);
  if (pq) return pq;
  const size = validSize(facts.keySize);
  const family = classicalFamily(text, facts.curve ? curveOf(facts.curve) : undefined);
  const edwards = EDWARDS_AND_MONTGOMERY[family];
  if (edwards) {
    const classical = family.endsWith('448') ? 224 : 128;
    return { ...edwards, classicalSecurityLevel: classical, nistQuantumSecurityLevel: 0 };
  }
  switch (family) {
    case 'RSA':
      return modulusAsset('RSA', facts.use === 'signature' ? 'signature' : 'pke', size, OID.rsa);
    case 'DSA':
      return modulusAsset('DSA', 'signature', size, OID.dsa);
    case 'DH':
      return modulusAsset('DH', 'key-agree', size, OID.dh);
    case 'ECDSA':
    case 'ECDH':
      return curveAsset(family, facts.curve, size);
    case 'EdDSA':
      return { name: 'EdDSA', primitive: 'signature', nistQuantumSecurityLevel: 0 };
    default:
      if (/^composite$/i.test(text)) return { name: 'composite', primitive: 'signature' };
      if (/^unknown$/i.test(text)) return { name: 'unknown', primitive: 'unknown' };
      return { name: text, primitive: PRIMITIVE_OF_USE[facts.use] };
  }
}

const PKCS1 = '1.2.840.113549.1.1';
const NIST_SIG = '2.16.840.1.101.3.4.3';
const ANSI_ECDSA = '1.2.840.10045.4';

/** Certificate signature algorithms by their OID registry names (as the certificate reader writes them). */
const CLASSICAL_SIGNATURES: ReadonlyArray<[string, string]> = [
  ['md2WithRSAEncryption', `${PKCS1}.2`],
  ['md4WithRSAEncryption', `${PKCS1}.3`],
  ['md5WithRSAEncryption', `${PKCS1}.4`],
  ['sha1WithRSAEncryption', `${PKCS1}.5`],
  ['RSASSA-PSS', `${PKCS1}.10`],
  ['sha256WithRSAEncryption', `${PKCS1}.11`],
  ['sha384WithRSAEncryption', `${PKCS1}.12`],
  ['sha512WithRSAEncryption', `${PKCS1}.13`],
  ['sha224WithRSAEncryption', `${PKCS1}.14`],
  ['RSA-SHA3-224', `${NIST_SIG}.13`],
  ['RSA-SHA3-256', `${NIST_SIG}.14`],
  ['RSA-SHA3-384', `${NIST_SIG}.15`],
  ['RSA-SHA3-512', `${NIST_SIG}.16`],
  ['ecdsa-with-SHA1', `${ANSI_ECDSA}.1`],
  ['ecdsa-with-SHA224', `${ANSI_ECDSA}.3.1`],
  ['ecdsa-with-SHA256', `${ANSI_ECDSA}.3.2`],
  ['ecdsa-with-SHA384', `${ANSI_ECDSA}.3.3`],
  ['ecdsa-with-SHA512', `${ANSI_ECDSA}.3.4`],
  ['ecdsa-with-SHA3-224', `${NIST_SIG}.9`],
  ['ecdsa-with-SHA3-256', `${NIST_SIG}.10`],
  ['ecdsa-with-SHA3-384', `${NIST_SIG}.11`],
  ['ecdsa-with-SHA3-512', `${NIST_SIG}.12`],
  ['dsa-with-SHA1', '1.2.840.10040.4.3'],
  ['dsa-with-SHA224', `${NIST_SIG}.1`],
  ['dsa-with-SHA256', `${NIST_SIG}.2`],
];
const SIGNATURE_BY_NAME = new Map(
  CLASSICAL_SIGNATURES.map(([name, oid]) => [name.toLowerCase(), { name, oid }]),
);

/**
 * A certificate's signature algorithm. Ed25519, ML-DSA-65 and the like are the same components
 * the source findings name; the classical hash-and-sign names carry category 0 and no bit count
 * (that depends on the issuer's key, which the certificate row does not give).
 */
export function signatureAsset(raw: string): AlgorithmAsset {
  const text = boundedName(raw) || 'unknown';
  const pq = postQuantumAsset([text], null);
  if (pq) return pq;
  if (/^ED(25519|448)$/i.test(text)) {
    return publicKeyAsset({ algorithm: text, keySize: null, curve: null, use: 'signature' });
  }
  const known = SIGNATURE_BY_NAME.get(text.toLowerCase());
  if (known) return { ...known, primitive: 'signature', nistQuantumSecurityLevel: 0 };
  if (/^\d+(\.\d+)+$/.test(text)) return { name: text, primitive: 'signature', oid: text };
  return {
    name: text,
    primitive: 'signature',
    ...(/RSA|DSA/i.test(text) ? { nistQuantumSecurityLevel: 0 } : {}),
  };
}
