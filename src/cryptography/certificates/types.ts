/**
 * What the certificate and key reader reports for one file (or, for describeCertificate, one
 * DER certificate from anywhere, such as a TLS peer chain). Pure facts: the quantum domain
 * stores them, turns private keys into key-material findings and lists certificates with their
 * provenance. Key bytes are never part of a fact.
 */
import type { QuantumClassification } from '../classify.js';

/**
 * Public-key families as the inventory names them. id-ecPublicKey keys are ECDSA (the same key
 * could do ECDH; the classification is the same). `composite` is an ML-DSA + classical pair
 * (draft-ietf-lamps-pq-composite-sigs); `unknown` an OID this reader does not know, or an
 * encrypted private key whose algorithm cannot be read without its password.
 */
export type KeyAlgorithm =
  | 'RSA'
  | 'DSA'
  | 'DH'
  | 'ECDSA'
  | 'ECDH'
  | 'EdDSA'
  | 'X25519'
  | 'X448'
  | 'ML-DSA'
  | 'SLH-DSA'
  | 'ML-KEM'
  | 'composite'
  | 'unknown';

/** Where a certificate was read from. `tls` is left to the TLS probe (describeCertificate). */
export type CertificateContainer = 'pem' | 'der' | 'pkcs7' | 'pkcs12' | 'jks' | 'jceks';

export interface CertificateFact {
  /** Node's distinguished name, in the certificate's order, joined with ", " (`C=US, O=X, CN=y`). */
  subject: string;
  issuer: string;
  /** Lower-case hex without separators or a sign byte (`0a1b...`). */
  serialNumber: string;
  /** ISO 8601 (UTC). */
  notBefore: string;
  notAfter: string;
  keyAlgorithm: KeyAlgorithm;
  /** The key's OID, for the CBOM and for keys this reader does not name. */
  keyAlgorithmOid: string;
  /** RSA and DSA modulus bits, or the field size of an elliptic curve (256 for P-256). */
  keySize?: number;
  /** P-256, P-384, P-521, P-224, P-192, secp256k1, brainpoolP256r1, Ed25519, Ed448, ... */
  curve?: string;
  /** ML-DSA-65, SLH-DSA-SHA2-128s, ML-KEM-768 or a composite name such as MLDSA65-ECDSA-P256-SHA512. */
  parameterSet?: string;
  /** sha256WithRSAEncryption, ecdsa-with-SHA384, RSASSA-PSS, ED25519, ML-DSA-65, ... or the OID. */
  signatureAlgorithm: string;
  signatureAlgorithmOid: string;
  /** SHA-1, SHA-256, ... when the signature names a hash (PSS: from its parameters). */
  signatureHash?: string;
  /** SHA-256 of the DER, lower-case hex without separators (64 characters). */
  fingerprintSha256: string;
  /** 1-based line of the `-----BEGIN` armour; 1 in a binary file. Absent from describeCertificate. */
  line?: number;
  container?: CertificateContainer;
  /** A keystore entry's alias or a PKCS#12 friendly name. */
  alias?: string;
  classification: QuantumClassification;
  /** notAfter is before the `now` the caller gave. */
  expired: boolean;
  /** Issuer and subject are the same name and the signature verifies with the certificate's own key. */
  selfSigned: boolean;
  /** basicConstraints cA is true. */
  isCa: boolean;
  /** The certificate itself (public data), for fingerprints and the CBOM. */
  der: Buffer;
}

/**
 * How a key was encoded. pkcs8, pkcs1, sec1 (EC PRIVATE KEY), openssl-dsa (DSA PRIVATE KEY),
 * openssh (OPENSSH PRIVATE KEY), spki (PUBLIC KEY), ssh-public (an OpenSSH public key line),
 * and the keystores a private key can sit in.
 */
export type KeyFormat =
  | 'pkcs8'
  | 'pkcs1'
  | 'sec1'
  | 'openssl-dsa'
  | 'openssh'
  | 'spki'
  | 'ssh-public'
  | 'pkcs12'
  | 'jks'
  | 'jceks';

export interface KeyFact {
  kind: 'private' | 'public';
  algorithm: KeyAlgorithm;
  keySize?: number;
  curve?: string;
  parameterSet?: string;
  /** 1-based line of the armour or of the OpenSSH key line; 1 in a binary file. */
  line: number;
  format: KeyFormat;
  /** The key is protected by a password (its algorithm may then be `unknown`). */
  encrypted: boolean;
  /**
   * Where the algorithm came from when the key itself could not be read: the certificate that
   * goes with it in a keystore (`certificate`).
   */
  algorithmFrom?: 'key' | 'certificate';
  /** An OpenSSH key's comment or a keystore alias, when there is one. */
  label?: string;
  classification: QuantumClassification;
}

export interface CryptoArtifacts {
  certificates: CertificateFact[];
  keys: KeyFact[];
  /** Short, human-readable reasons something in the file was not read; never key material. */
  problems: string[];
}
