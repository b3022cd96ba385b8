/**
 * What a language detector reports for one file. Detectors are pure: a file's text in, the
 * uses of public-key cryptography found by reading its syntax tree out. The quantum domain
 * turns these into stored findings (classification, severity and recommendation come from
 * ../classify.ts, one place for every kind of evidence).
 */

export type SourceLanguage =
  | 'javascript'
  | 'typescript'
  | 'python'
  | 'go'
  | 'java'
  | 'csharp'
  | 'rust'
  | 'ruby'
  | 'php';

/** What the code does with the algorithm. `library` is for dependencies, never source. */
export type CryptoPrimitive =
  | 'key-generation'
  | 'key-agreement'
  | 'signature'
  | 'encryption'
  | 'key-material'
  | 'library';

/** Quantum-vulnerable families, or the family an API implies. */
export type PublicKeyAlgorithm =
  | 'RSA'
  | 'DSA'
  | 'DH'
  | 'ECDH'
  | 'ECDSA'
  | 'EdDSA'
  | 'X25519'
  | 'X448'
  | 'ML-KEM'
  | 'ML-DSA'
  | 'SLH-DSA';

/** A use of public-key cryptography found in one file. */
export interface SourceCryptoUse {
  /** 1-based line of the call (or of the key material). */
  line: number;
  language: SourceLanguage;
  primitive: Exclude<CryptoPrimitive, 'library'>;
  algorithm: PublicKeyAlgorithm;
  /** Named curve when the code fixes one (P-256, P-384, P-521, secp256k1, Curve25519, ...). */
  curve?: string;
  /** Key size in bits when the code fixes one (a literal, or a constant resolved in the file). */
  keySize?: number;
  /** The API that was called, as written (for example `crypto.generateKeyPairSync`). */
  api: string;
}

/**
 * A symmetric cipher or hash seen in the same pass: recorded in the CBOM as an algorithm,
 * never a quantum finding.
 */
export interface SourceAlgorithmUse {
  line: number;
  language: SourceLanguage;
  /** AES-256-GCM, ChaCha20-Poly1305, SHA-256, SHA-1, MD5, HMAC-SHA256, ... */
  algorithm: string;
  kind: 'block-cipher' | 'stream-cipher' | 'ae' | 'hash' | 'mac' | 'kdf';
}

export interface SourceFileReport {
  uses: SourceCryptoUse[];
  algorithms: SourceAlgorithmUse[];
}

/** One language's detector: the file extensions it reads and what it finds in one file. */
export interface LanguageDetector {
  language: SourceLanguage;
  extensions: readonly string[];
  detect(path: string, text: string): Promise<SourceFileReport>;
  /**
   * A cheap keyword check on the raw text, true for every file the detector could find
   * something in (a superset): the walk skips parsing files for which it is false.
   */
  prefilter?: (text: string) => boolean;
}
