/**
 * One place that says how quantum-ready a public-key algorithm is, for every kind of evidence
 * (source code, certificates and keys, TLS endpoints). NIST IR 8547: RSA, finite-field and
 * elliptic-curve schemes at 112-bit strength are deprecated after 2030 and all of them are
 * disallowed after 2035; anything already below 112 bits (RSA under 2048, DSA, SHA-1 or MD5
 * signatures) is weak today. ML-KEM, ML-DSA and SLH-DSA (FIPS 203/204/205) are quantum-safe;
 * a classical scheme paired with one of them is hybrid.
 */

export type QuantumClassification =
  | 'weak'
  | 'deprecated-2030'
  | 'disallowed-2035'
  | 'hybrid'
  | 'quantum-safe';

export type QuantumSeverity = 'critical' | 'high' | 'medium' | 'low' | 'info';

export interface AlgorithmStrength {
  /** RSA, DSA, DH, ECDH, ECDSA, EdDSA, X25519, X448, ML-KEM, ML-DSA, SLH-DSA, or a hybrid name. */
  algorithm: string;
  keySize?: number | undefined;
  curve?: string | undefined;
  /** For certificates: the hash of the signature (SHA-1 and MD5 make a certificate weak). */
  signatureHash?: string | undefined;
}

const QUANTUM_SAFE = /^(ML-KEM|ML-DSA|SLH-DSA|FN-DSA|LMS|XMSS)/i;
const HYBRID = /MLKEM|ML-KEM.*\+|\+.*ML-KEM|composite|hybrid/i;
/** Curves at 112-bit classical strength (deprecated after 2030, not only disallowed after 2035). */
const CURVES_112 = new Set(['p-224', 'secp224r1', 'prime224v1']);
/** Curves under 112 bits: weak today. */
const CURVES_WEAK = new Set(['p-192', 'secp192r1', 'prime192v1', 'secp160r1', 'secp160k1']);

/** Normalised curve name for comparisons: `P-256`, `secp256r1` and `prime256v1` all mean one. */
export function curveKey(curve: string): string {
  return curve.trim().toLowerCase();
}

export function classifyAlgorithm(strength: AlgorithmStrength): QuantumClassification {
  const { algorithm, keySize, curve, signatureHash } = strength;
  if (HYBRID.test(algorithm)) return 'hybrid';
  if (QUANTUM_SAFE.test(algorithm)) return 'quantum-safe';
  if (signatureHash && /^(md2|md4|md5|sha-?1)$/i.test(signatureHash)) return 'weak';
  switch (algorithm.toUpperCase()) {
    case 'DSA':
      return 'weak';
    case 'RSA':
    case 'DH':
      if (keySize !== undefined && keySize < 2048) return 'weak';
      // Unknown sizes count as 2048, the default of nearly every library: the stricter date.
      if (keySize === undefined || keySize < 3072) return 'deprecated-2030';
      return 'disallowed-2035';
    default: {
      if (curve && CURVES_WEAK.has(curveKey(curve))) return 'weak';
      if (curve && CURVES_112.has(curveKey(curve))) return 'deprecated-2030';
      if (keySize !== undefined && keySize < 224 && /EC|ECDSA|ECDH/i.test(algorithm)) return 'weak';
      return 'disallowed-2035';
    }
  }
}

export function severityOf(classification: QuantumClassification): QuantumSeverity {
  switch (classification) {
    case 'weak':
      return 'high';
    case 'deprecated-2030':
      return 'medium';
    case 'disallowed-2035':
      return 'low';
    default:
      return 'info';
  }
}

export type RecommendationUse = 'key-establishment' | 'signature' | 'both';

/** What to migrate to (FIPS 203 for key establishment, FIPS 204/205 for signatures). */
export function recommendationFor(use: RecommendationUse): string {
  switch (use) {
    case 'key-establishment':
      return 'ML-KEM-768, or hybrid X25519MLKEM768 for TLS key exchange';
    case 'signature':
      return 'ML-DSA-65, or SLH-DSA for long-lived signatures';
    default:
      return 'ML-KEM-768 for key establishment and ML-DSA-65 for signatures';
  }
}

/** The use an algorithm family implies when the code does not say more. */
export function useOfAlgorithm(algorithm: string): RecommendationUse {
  if (/^(DH|ECDH|X25519|X448|ML-KEM)$/i.test(algorithm)) return 'key-establishment';
  if (/^(DSA|ECDSA|EdDSA|ML-DSA|SLH-DSA)$/i.test(algorithm)) return 'signature';
  return 'both';
}
