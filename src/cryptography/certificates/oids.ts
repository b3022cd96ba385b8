/**
 * The object identifiers a certificate or key names, and what the inventory calls them. Names
 * follow the OID registry (OpenSSL's long names for the classical signatures, FIPS 204/205 for
 * ML-DSA and SLH-DSA, draft-ietf-lamps-pq-composite-sigs for the composites).
 */
import type { KeyAlgorithm } from './types.js';

export interface SignatureAlgorithmInfo {
  name: string;
  family: KeyAlgorithm;
  hash?: string;
}

export interface KeyAlgorithmInfo {
  algorithm: KeyAlgorithm;
  curve?: string;
  parameterSet?: string;
}

const RSA = '1.2.840.113549.1.1';
const NIST_SIG = '2.16.840.1.101.3.4.3';

const SIGNATURES: Record<string, SignatureAlgorithmInfo> = {
  [`${RSA}.2`]: { name: 'md2WithRSAEncryption', family: 'RSA', hash: 'MD2' },
  [`${RSA}.3`]: { name: 'md4WithRSAEncryption', family: 'RSA', hash: 'MD4' },
  [`${RSA}.4`]: { name: 'md5WithRSAEncryption', family: 'RSA', hash: 'MD5' },
  [`${RSA}.5`]: { name: 'sha1WithRSAEncryption', family: 'RSA', hash: 'SHA-1' },
  '1.3.14.3.2.29': { name: 'sha1WithRSAEncryption', family: 'RSA', hash: 'SHA-1' },
  [`${RSA}.10`]: { name: 'RSASSA-PSS', family: 'RSA' },
  [`${RSA}.11`]: { name: 'sha256WithRSAEncryption', family: 'RSA', hash: 'SHA-256' },
  [`${RSA}.12`]: { name: 'sha384WithRSAEncryption', family: 'RSA', hash: 'SHA-384' },
  [`${RSA}.13`]: { name: 'sha512WithRSAEncryption', family: 'RSA', hash: 'SHA-512' },
  [`${RSA}.14`]: { name: 'sha224WithRSAEncryption', family: 'RSA', hash: 'SHA-224' },
  [`${NIST_SIG}.13`]: { name: 'RSA-SHA3-224', family: 'RSA', hash: 'SHA3-224' },
  [`${NIST_SIG}.14`]: { name: 'RSA-SHA3-256', family: 'RSA', hash: 'SHA3-256' },
  [`${NIST_SIG}.15`]: { name: 'RSA-SHA3-384', family: 'RSA', hash: 'SHA3-384' },
  [`${NIST_SIG}.16`]: { name: 'RSA-SHA3-512', family: 'RSA', hash: 'SHA3-512' },
  '1.2.840.10045.4.1': { name: 'ecdsa-with-SHA1', family: 'ECDSA', hash: 'SHA-1' },
  '1.2.840.10045.4.3.1': { name: 'ecdsa-with-SHA224', family: 'ECDSA', hash: 'SHA-224' },
  '1.2.840.10045.4.3.2': { name: 'ecdsa-with-SHA256', family: 'ECDSA', hash: 'SHA-256' },
  '1.2.840.10045.4.3.3': { name: 'ecdsa-with-SHA384', family: 'ECDSA', hash: 'SHA-384' },
  '1.2.840.10045.4.3.4': { name: 'ecdsa-with-SHA512', family: 'ECDSA', hash: 'SHA-512' },
  [`${NIST_SIG}.9`]: { name: 'ecdsa-with-SHA3-224', family: 'ECDSA', hash: 'SHA3-224' },
  [`${NIST_SIG}.10`]: { name: 'ecdsa-with-SHA3-256', family: 'ECDSA', hash: 'SHA3-256' },
  [`${NIST_SIG}.11`]: { name: 'ecdsa-with-SHA3-384', family: 'ECDSA', hash: 'SHA3-384' },
  [`${NIST_SIG}.12`]: { name: 'ecdsa-with-SHA3-512', family: 'ECDSA', hash: 'SHA3-512' },
  '1.2.840.10040.4.3': { name: 'dsa-with-SHA1', family: 'DSA', hash: 'SHA-1' },
  [`${NIST_SIG}.1`]: { name: 'dsa-with-SHA224', family: 'DSA', hash: 'SHA-224' },
  [`${NIST_SIG}.2`]: { name: 'dsa-with-SHA256', family: 'DSA', hash: 'SHA-256' },
  '1.3.101.112': { name: 'ED25519', family: 'EdDSA' },
  '1.3.101.113': { name: 'ED448', family: 'EdDSA' },
};

const HASHES: Record<string, string> = {
  '1.3.14.3.2.26': 'SHA-1',
  '2.16.840.1.101.3.4.2.1': 'SHA-256',
  '2.16.840.1.101.3.4.2.2': 'SHA-384',
  '2.16.840.1.101.3.4.2.3': 'SHA-512',
  '2.16.840.1.101.3.4.2.4': 'SHA-224',
  '1.2.840.113549.2.5': 'MD5',
};

const ML_DSA = ['ML-DSA-44', 'ML-DSA-65', 'ML-DSA-87'];
const SLH_DSA_SETS = ['SHA2', 'SHAKE'].flatMap((hash) =>
  ['128s', '128f', '192s', '192f', '256s', '256f'].map((level) => `SLH-DSA-${hash}-${level}`),
);
const ML_KEM = ['ML-KEM-512', 'ML-KEM-768', 'ML-KEM-1024'];

/**
 * Composite ML-DSA, in the order of the IANA-assigned arc 1.3.6.1.5.5.7.6.37-54
 * (draft-ietf-lamps-pq-composite-sigs); the earlier drafts' Entrust arcs are recognised as
 * composite without a name.
 */
const COMPOSITES = [
  'MLDSA44-RSA2048-PSS-SHA256',
  'MLDSA44-RSA2048-PKCS15-SHA256',
  'MLDSA44-Ed25519-SHA512',
  'MLDSA44-ECDSA-P256-SHA256',
  'MLDSA65-RSA3072-PSS-SHA512',
  'MLDSA65-RSA3072-PKCS15-SHA512',
  'MLDSA65-RSA4096-PSS-SHA512',
  'MLDSA65-RSA4096-PKCS15-SHA512',
  'MLDSA65-ECDSA-P256-SHA512',
  'MLDSA65-ECDSA-P384-SHA512',
  'MLDSA65-ECDSA-brainpoolP256r1-SHA512',
  'MLDSA65-Ed25519-SHA512',
  'MLDSA87-ECDSA-P384-SHA512',
  'MLDSA87-ECDSA-brainpoolP384r1-SHA512',
  'MLDSA87-Ed448-SHAKE256',
  'MLDSA87-RSA3072-PSS-SHA512',
  'MLDSA87-RSA4096-PSS-SHA512',
  'MLDSA87-ECDSA-P521-SHA512',
];
const COMPOSITE_ARC = '1.3.6.1.5.5.7.6.';
const COMPOSITE_DRAFT_ARCS = ['2.16.840.1.114027.80.8.1.', '2.16.840.1.114027.80.9.1.'];

/** The post-quantum and composite OIDs, shared by signatures and keys (one OID names both). */
function postQuantum(oid: string): KeyAlgorithmInfo | undefined {
  if (oid.startsWith(`${NIST_SIG}.`)) {
    const arc = Number(oid.slice(NIST_SIG.length + 1));
    const mlDsa = ML_DSA[arc - 17];
    if (mlDsa) return { algorithm: 'ML-DSA', parameterSet: mlDsa };
    const hashMlDsa = ML_DSA[arc - 32];
    if (hashMlDsa) return { algorithm: 'ML-DSA', parameterSet: `Hash${hashMlDsa}-SHA512` };
    const slhDsa = SLH_DSA_SETS[arc - 20];
    if (slhDsa) return { algorithm: 'SLH-DSA', parameterSet: slhDsa };
    if (arc >= 35 && arc <= 46) return { algorithm: 'SLH-DSA', parameterSet: `HashSLH-DSA` };
  }
  const mlKem = oid.startsWith('2.16.840.1.101.3.4.4.') ? ML_KEM[Number(oid.slice(21)) - 1] : '';
  if (mlKem) return { algorithm: 'ML-KEM', parameterSet: mlKem };
  if (oid.startsWith(COMPOSITE_ARC)) {
    const name = COMPOSITES[Number(oid.slice(COMPOSITE_ARC.length)) - 37];
    if (name) return { algorithm: 'composite', parameterSet: name };
  }
  if (COMPOSITE_DRAFT_ARCS.some((arc) => oid.startsWith(arc))) {
    return { algorithm: 'composite', parameterSet: 'composite (draft OID)' };
  }
  return undefined;
}

export function signatureAlgorithmOf(oid: string): SignatureAlgorithmInfo {
  const known = SIGNATURES[oid];
  if (known) return known;
  const pq = postQuantum(oid);
  if (pq) return { name: pq.parameterSet ?? pq.algorithm, family: pq.algorithm };
  return { name: oid, family: 'unknown' };
}

export function hashNameOf(oid: string): string | undefined {
  return HASHES[oid];
}

const CURVES: Record<string, { name: string; bits: number }> = {
  '1.2.840.10045.3.1.7': { name: 'P-256', bits: 256 },
  '1.3.132.0.34': { name: 'P-384', bits: 384 },
  '1.3.132.0.35': { name: 'P-521', bits: 521 },
  '1.3.132.0.33': { name: 'P-224', bits: 224 },
  '1.2.840.10045.3.1.1': { name: 'P-192', bits: 192 },
  '1.3.132.0.10': { name: 'secp256k1', bits: 256 },
  '1.3.36.3.3.2.8.1.1.7': { name: 'brainpoolP256r1', bits: 256 },
  '1.3.36.3.3.2.8.1.1.11': { name: 'brainpoolP384r1', bits: 384 },
  '1.3.36.3.3.2.8.1.1.13': { name: 'brainpoolP512r1', bits: 512 },
};

/** OpenSSL's curve names (Node's `namedCurve`) to the inventory's. */
const NODE_CURVES: Record<string, string> = {
  prime256v1: '1.2.840.10045.3.1.7',
  secp384r1: '1.3.132.0.34',
  secp521r1: '1.3.132.0.35',
  secp224r1: '1.3.132.0.33',
  prime192v1: '1.2.840.10045.3.1.1',
  secp256k1: '1.3.132.0.10',
  brainpoolP256r1: '1.3.36.3.3.2.8.1.1.7',
  brainpoolP384r1: '1.3.36.3.3.2.8.1.1.11',
  brainpoolP512r1: '1.3.36.3.3.2.8.1.1.13',
};

export function curveOf(oid: string): { name: string; bits: number } | undefined {
  return CURVES[oid];
}

/** A curve as Node names it (`prime256v1`), or the OpenSSH name (`nistp256`). */
export function curveByName(name: string): { name: string; bits?: number } {
  const nist = /^nistp(256|384|521)$/.exec(name);
  if (nist) return { name: `P-${nist[1]}`, bits: Number(nist[1]) };
  const oid = NODE_CURVES[name];
  return (oid && CURVES[oid]) || { name };
}

const KEYS: Record<string, KeyAlgorithmInfo> = {
  [`${RSA}.1`]: { algorithm: 'RSA' },
  [`${RSA}.10`]: { algorithm: 'RSA' },
  '1.2.840.10045.2.1': { algorithm: 'ECDSA' },
  '1.3.132.1.12': { algorithm: 'ECDH' },
  '1.2.840.10040.4.1': { algorithm: 'DSA' },
  '1.2.840.113549.1.3.1': { algorithm: 'DH' },
  '1.2.840.10046.2.1': { algorithm: 'DH' },
  '1.3.101.110': { algorithm: 'X25519', curve: 'Curve25519' },
  '1.3.101.111': { algorithm: 'X448', curve: 'Curve448' },
  '1.3.101.112': { algorithm: 'EdDSA', curve: 'Ed25519' },
  '1.3.101.113': { algorithm: 'EdDSA', curve: 'Ed448' },
};

export function keyAlgorithmOf(oid: string): KeyAlgorithmInfo {
  return KEYS[oid] ?? postQuantum(oid) ?? { algorithm: 'unknown' };
}

/** Node's asymmetricKeyType to the inventory's family. */
export function keyAlgorithmOfNodeType(type: string | undefined): KeyAlgorithmInfo {
  switch (type) {
    case 'rsa':
    case 'rsa-pss':
      return { algorithm: 'RSA' };
    case 'ec':
      return { algorithm: 'ECDSA' };
    case 'dsa':
      return { algorithm: 'DSA' };
    case 'dh':
      return { algorithm: 'DH' };
    case 'ed25519':
      return { algorithm: 'EdDSA', curve: 'Ed25519' };
    case 'ed448':
      return { algorithm: 'EdDSA', curve: 'Ed448' };
    case 'x25519':
      return { algorithm: 'X25519', curve: 'Curve25519' };
    case 'x448':
      return { algorithm: 'X448', curve: 'Curve448' };
    default:
      return { algorithm: 'unknown' };
  }
}
