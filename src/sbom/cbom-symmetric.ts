/**
 * Symmetric ciphers, hashes, MACs and KDFs for the CBOM: the spellings the source detectors give
 * (AES-256-GCM, AES/GCM/NoPadding, sha3_512, HmacSHA256) read into one component name each, with
 * the levels of the table in cbom-algorithms.ts.
 */
import { type AlgorithmAsset, boundedName, keySearchCategory } from './cbom-algorithms.js';
import type { CbomMode, CbomSymmetricKind } from './cbom-types.js';

interface HashFacts {
  bits: number;
  /** Collisions are practical: no classical bit count, category 0. */
  broken?: true;
  /** An extendable-output function (SHAKE): strength depends on the output length. */
  xof?: true;
  oid?: string;
}

const NIST_HASH = '2.16.840.1.101.3.4.2';
const HASHES: Readonly<Record<string, HashFacts>> = {
  MD2: { bits: 128, broken: true, oid: '1.2.840.113549.2.2' },
  MD4: { bits: 128, broken: true, oid: '1.2.840.113549.2.4' },
  MD5: { bits: 128, broken: true, oid: '1.2.840.113549.2.5' },
  'SHA-1': { bits: 160, broken: true, oid: '1.3.14.3.2.26' },
  'SHA-224': { bits: 224, oid: `${NIST_HASH}.4` },
  'SHA-256': { bits: 256, oid: `${NIST_HASH}.1` },
  'SHA-384': { bits: 384, oid: `${NIST_HASH}.2` },
  'SHA-512': { bits: 512, oid: `${NIST_HASH}.3` },
  'SHA-512/224': { bits: 224, oid: `${NIST_HASH}.5` },
  'SHA-512/256': { bits: 256, oid: `${NIST_HASH}.6` },
  'SHA3-224': { bits: 224, oid: `${NIST_HASH}.7` },
  'SHA3-256': { bits: 256, oid: `${NIST_HASH}.8` },
  'SHA3-384': { bits: 384, oid: `${NIST_HASH}.9` },
  'SHA3-512': { bits: 512, oid: `${NIST_HASH}.10` },
  SHAKE128: { bits: 128, xof: true, oid: `${NIST_HASH}.11` },
  SHAKE256: { bits: 256, xof: true, oid: `${NIST_HASH}.12` },
  'RIPEMD-160': { bits: 160, oid: '1.3.36.3.2.1' },
  BLAKE3: { bits: 256 },
  SM3: { bits: 256, oid: '1.2.156.10197.1.401' },
};

const HASH_SPELLINGS: ReadonlyArray<[RegExp, (match: RegExpExecArray) => string]> = [
  [/^SHA-?1$/i, () => 'SHA-1'],
  [/^SHA-?(224|256|384|512)$/i, (m) => `SHA-${m[1]}`],
  [/^SHA-?512[-/_](224|256)$/i, (m) => `SHA-512/${m[1]}`],
  [/^SHA3[-_]?(224|256|384|512)$/i, (m) => `SHA3-${m[1]}`],
  [/^SHAKE[-_]?(128|256)$/i, (m) => `SHAKE${m[1]}`],
  [/^MD([245])$/i, (m) => `MD${m[1]}`],
  [/^RIPEMD-?160$/i, () => 'RIPEMD-160'],
  [/^BLAKE2([bs])(?:-?(\d{3}))?$/i, (m) => `BLAKE2${m[1]!.toLowerCase()}${m[2] ? `-${m[2]}` : ''}`],
  [/^BLAKE3$/i, () => 'BLAKE3'],
  [/^SM3$/i, () => 'SM3'],
];

/** A hash name in the usual spelling (SHA-256 for sha256, SHA3-512 for sha3_512). */
export function hashName(text: string): string | undefined {
  for (const [pattern, spell] of HASH_SPELLINGS) {
    const match = pattern.exec(text.trim());
    if (match) return spell(match);
  }
  return undefined;
}

function hashFacts(name: string): HashFacts | undefined {
  const blake2 = /^BLAKE2([bs])(?:-(\d+))?$/.exec(name);
  if (blake2) return { bits: blake2[2] ? Number(blake2[2]) : blake2[1] === 'b' ? 512 : 256 };
  return HASHES[name];
}

export function hashAsset(text: string): AlgorithmAsset | undefined {
  const name = hashName(text);
  const facts = name ? hashFacts(name) : undefined;
  if (!name || !facts) return undefined;
  const oid = facts.oid ? { oid: facts.oid } : {};
  if (facts.xof) {
    return { name, primitive: 'xof', parameterSetIdentifier: String(facts.bits), ...oid };
  }
  const category = facts.bits >= 512 ? 5 : facts.bits >= 384 ? 4 : facts.bits >= 256 ? 2 : 0;
  return {
    name,
    primitive: 'hash',
    parameterSetIdentifier: String(facts.bits),
    ...(!facts.broken && { classicalSecurityLevel: facts.bits / 2 }),
    nistQuantumSecurityLevel: facts.broken ? 0 : category,
    ...oid,
  };
}

const HMAC_OIDS: Readonly<Record<string, string>> = {
  'SHA-1': '1.2.840.113549.2.7',
  'SHA-224': '1.2.840.113549.2.8',
  'SHA-256': '1.2.840.113549.2.9',
  'SHA-384': '1.2.840.113549.2.10',
  'SHA-512': '1.2.840.113549.2.11',
};

/** HMAC-SHA-256 for HMAC-SHA256 or HmacSHA256; other MACs as named. No level: the key decides. */
function macAsset(text: string): AlgorithmAsset {
  const hmac = /^HMAC(?:[-_ /]?(.+))?$/i.exec(text);
  if (!hmac) return { name: text, primitive: 'mac' };
  const hash = hmac[1] ? hashName(hmac[1]) : undefined;
  const name = hash ? `HMAC-${hash}` : hmac[1] ? `HMAC-${hmac[1]}` : 'HMAC';
  const oid = hash ? HMAC_OIDS[hash] : undefined;
  return { name, primitive: 'mac', ...(oid && { oid }) };
}

const AE_MODES = /^(GCM|CCM|SIV|GCM-SIV|OCB\d?|EAX|POLY1305)/;
const AES_MODE_ARCS: Readonly<Record<string, number>> = {
  ECB: 1,
  CBC: 2,
  OFB: 3,
  CFB: 4,
  KW: 5,
  GCM: 6,
  CCM: 7,
};

function modeOf(token: string): CbomMode {
  const match = /^(GCM|CCM|CBC|ECB|CFB|OFB|CTR)/.exec(token);
  return match ? (match[1]!.toLowerCase() as CbomMode) : 'other';
}

/** A sized block cipher: AES-256-GCM, CAMELLIA-128-CBC, SM4-CTR. */
function blockCipherAsset(
  family: string,
  size: string | undefined,
  mode: string | undefined,
  kind: CbomSymmetricKind,
): AlgorithmAsset {
  const bits = size ? Number(size) : undefined;
  const arc = family === 'AES' && bits && mode ? AES_MODE_ARCS[mode] : undefined;
  const base = bits === 256 ? 40 : bits === 192 ? 20 : 0;
  return {
    name: [family, size, mode].filter(Boolean).join('-'),
    primitive: (mode && AE_MODES.test(mode)) || kind === 'ae' ? 'ae' : 'block-cipher',
    ...(size ? { parameterSetIdentifier: size } : {}),
    ...(mode ? { mode: modeOf(mode) } : {}),
    ...(bits
      ? { classicalSecurityLevel: bits, nistQuantumSecurityLevel: keySearchCategory(bits) }
      : {}),
    ...(arc ? { oid: `2.16.840.1.101.3.4.1.${base + arc}` } : {}),
  };
}

/** Ciphers by the spellings the detectors give (AES-256-GCM, AES/GCM/NoPadding, DESede, RC4). */
function cipherAsset(text: string, kind: CbomSymmetricKind): AlgorithmAsset {
  const key = text
    .toUpperCase()
    .replace(/[\s_/]+/g, '-')
    .replace(/-(NO|PKCS5|PKCS7|ISO10126)PADDING$/, '');
  const sized = /^(AES|CAMELLIA|ARIA|SM4)-?(128|192|256)?(?:-(.+))?$/.exec(key);
  if (sized) {
    const size = sized[2] ?? (sized[1] === 'SM4' ? '128' : undefined);
    return blockCipherAsset(sized[1]!, size, sized[3], kind);
  }
  const chacha = /^(X?)CHACHA20(-?POLY1305)?$/.exec(key);
  if (chacha) {
    return {
      name: `${chacha[1]}ChaCha20${chacha[2] ? '-Poly1305' : ''}`,
      primitive: chacha[2] ? 'ae' : 'stream-cipher',
      classicalSecurityLevel: 256,
      nistQuantumSecurityLevel: 5,
    };
  }
  const tdes = /^(?:3DES|DESEDE|TRIPLE-?DES|DES-EDE3|DES3|TDEA)(?:-EDE)?(?:-(.+))?$/.exec(key);
  const des = tdes ? undefined : /^DES(?:-(.+))?$/.exec(key);
  const legacy = tdes ?? des;
  if (legacy) {
    const mode = legacy[1];
    return {
      name: [tdes ? '3DES' : 'DES', mode].filter(Boolean).join('-'),
      primitive: 'block-cipher',
      ...(mode ? { mode: modeOf(mode) } : {}),
      classicalSecurityLevel: tdes ? 112 : 56,
      nistQuantumSecurityLevel: 0,
    };
  }
  if (/^(RC4|ARCFOUR)(-\d+)?$/.test(key)) {
    return { name: 'RC4', primitive: 'stream-cipher', nistQuantumSecurityLevel: 0 };
  }
  const primitive = kind === 'ae' || kind === 'stream-cipher' ? kind : 'block-cipher';
  return { name: text, primitive };
}

/** A symmetric cipher, hash, MAC or KDF seen in source. */
export function symmetricAsset(raw: string, kind: CbomSymmetricKind): AlgorithmAsset {
  const text = boundedName(raw) || 'unknown';
  switch (kind) {
    case 'hash':
      return hashAsset(text) ?? { name: text, primitive: 'hash' };
    case 'mac':
      return macAsset(text);
    case 'kdf':
      return /^PBKDF2$/i.test(text)
        ? { name: 'PBKDF2', primitive: 'kdf', oid: '1.2.840.113549.1.5.12' }
        : { name: text, primitive: 'kdf' };
    default:
      return cipherAsset(text, kind);
  }
}
