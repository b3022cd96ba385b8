/**
 * How a certificate or key found in a repository classifies, in terms of ../classify.ts (one
 * classification for every kind of quantum evidence).
 */
import { classifyAlgorithm, type QuantumClassification } from '../classify.js';
import type { SignatureAlgorithmInfo } from './oids.js';
import type { KeyAlgorithm } from './types.js';

export interface KeyStrength {
  algorithm: KeyAlgorithm;
  keySize?: number | undefined;
  curve?: string | undefined;
  parameterSet?: string | undefined;
}

const READINESS: readonly QuantumClassification[] = [
  'weak',
  'deprecated-2030',
  'disallowed-2035',
  'hybrid',
  'quantum-safe',
];

/** The less quantum-ready of two classifications. */
export function leastReady(
  a: QuantumClassification,
  b: QuantumClassification,
): QuantumClassification {
  return READINESS.indexOf(a) <= READINESS.indexOf(b) ? a : b;
}

/** The name classifyAlgorithm should see: the parameter set says more than the family. */
function algorithmName(key: KeyStrength): string {
  if (key.algorithm === 'composite') return 'composite';
  return key.parameterSet ?? key.algorithm;
}

/**
 * A key's classification. A key whose algorithm cannot be read (an encrypted PKCS#8 key) counts
 * as RSA of unknown size: the commonest key in repositories, and the stricter date, as unknown
 * sizes do everywhere else.
 */
export function classifyKey(key: KeyStrength, signatureHash?: string): QuantumClassification {
  if (key.algorithm === 'unknown' && !key.parameterSet) {
    return classifyAlgorithm({ algorithm: 'RSA', signatureHash });
  }
  return classifyAlgorithm({
    algorithm: algorithmName(key),
    keySize: key.keySize,
    curve: key.curve,
    signatureHash,
  });
}

/**
 * The best a certificate can be given who signed it. The issuer's key size is not in the
 * certificate (the issuer's own certificate is classified by its key), so a classical signature
 * caps the certificate at disallowed-2035: an ML-DSA key certified with ECDSA is no better.
 */
function signatureCeiling(signature: SignatureAlgorithmInfo): QuantumClassification {
  switch (signature.family) {
    case 'ML-DSA':
    case 'SLH-DSA':
    case 'composite':
    case 'DSA':
      return classifyAlgorithm({ algorithm: signature.family });
    case 'RSA':
    case 'ECDSA':
    case 'EdDSA':
      return 'disallowed-2035';
    default:
      return 'quantum-safe';
  }
}

/**
 * A certificate's classification: its own key (with the signature's hash: SHA-1 or MD5 make it
 * weak), capped by its signature's family.
 */
export function classifyCertificate(
  key: KeyStrength,
  signature: SignatureAlgorithmInfo,
): QuantumClassification {
  return leastReady(classifyKey(key, signature.hash), signatureCeiling(signature));
}
