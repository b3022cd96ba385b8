/**
 * The CycloneDX 1.6 cryptography bill of materials (CBOM): what the writer takes (plain rows of
 * the quantum inventory, docs/quantum.md) and the document it gives. The input is declared here,
 * not imported, because the sbom layer may import only core and ecosystems.
 */

export type CbomFindingPrimitive =
  | 'key-generation'
  | 'key-agreement'
  | 'signature'
  | 'encryption'
  | 'key-material'
  | 'library';

export type CbomSymmetricKind = 'block-cipher' | 'stream-cipher' | 'ae' | 'hash' | 'mac' | 'kdf';

/** A public-key use, a committed key (key-material) or a cryptography library (library). */
export interface CbomFindingInput {
  findingId: string;
  file: string | null;
  line: number | null;
  primitive: CbomFindingPrimitive;
  /** RSA, DSA, DH, ECDH, ECDSA, EdDSA, X25519, X448, ML-KEM, ML-DSA, SLH-DSA, or ML-KEM-768... */
  algorithm: string;
  curve: string | null;
  keySize: number | null;
  classification: string;
  api: string | null;
  purl: string | null;
  snippet: string | null;
}

/** A symmetric cipher, hash, MAC or KDF seen in source (never a finding). */
export interface CbomAlgorithmInput {
  algorithm: string;
  kind: CbomSymmetricKind;
  file: string;
  line: number;
}

export interface CbomCertificateInput {
  certificateId: string;
  subject: string;
  issuer: string;
  serialNumber: string;
  notBefore: Date;
  notAfter: Date;
  /** RSA, DSA, ECDSA, EdDSA, ML-DSA, SLH-DSA, composite, unknown (or a name with its set). */
  keyAlgorithm: string;
  keySize: number | null;
  curve: string | null;
  /**
   * The key's parameter set when known (ML-DSA-65, SLH-DSA-SHA2-128s, a composite name). The
   * certificate rows do not keep it yet; without it a post-quantum key is written as its family.
   */
  keyParameterSet?: string | null;
  /** sha256WithRSAEncryption, ecdsa-with-SHA384, RSASSA-PSS, ED25519, ML-DSA-65, or an OID. */
  signatureAlgorithm: string;
  fingerprintSha256: string;
  file: string | null;
  line: number | null;
  provenance: 'repository-file' | 'tls-observation';
  /** `host:port` of a TLS observation. */
  endpoint?: string | null;
}

/** What a TLS observation saw of one endpoint. */
export interface CbomProtocolInput {
  /** `host:port`. */
  endpoint: string;
  /** TLSv1.3, TLSv1.2, ... as Node reports it. */
  version: string | null;
  /** IANA (TLS_AES_128_GCM_SHA256) or OpenSSL (ECDHE-RSA-AES128-GCM-SHA256) spelling. */
  cipherSuite: string | null;
  /** The key-exchange group's IANA name (x25519, secp256r1, X25519MLKEM768, ffdhe2048). */
  group: string | null;
}

export interface CbomInput {
  repository: { id: string; name: string; commitSha?: string | null; scanId?: string | null };
  /** The document's timestamp (and part of its serial number: a regeneration is identical). */
  generatedAt: Date;
  tool: { name: string; version: string };
  /** Public-key uses and key material (quantum findings), and crypto-library findings (purl set). */
  findings: CbomFindingInput[];
  /** Symmetric ciphers, hashes, MACs and KDFs seen in source (not findings). */
  algorithms: CbomAlgorithmInput[];
  certificates: CbomCertificateInput[];
  /** TLS endpoints observed (optional; protocols with cipher suites). */
  protocols: CbomProtocolInput[];
}

/** The values of the 1.6 schema's enums the writer uses. */
export type CbomPrimitive =
  | 'drbg'
  | 'mac'
  | 'block-cipher'
  | 'stream-cipher'
  | 'signature'
  | 'hash'
  | 'pke'
  | 'xof'
  | 'kdf'
  | 'key-agree'
  | 'kem'
  | 'ae'
  | 'combiner'
  | 'other'
  | 'unknown';

export type CbomCryptoFunction =
  | 'generate'
  | 'keygen'
  | 'encrypt'
  | 'decrypt'
  | 'digest'
  | 'tag'
  | 'keyderive'
  | 'sign'
  | 'verify'
  | 'encapsulate'
  | 'decapsulate'
  | 'other'
  | 'unknown';

export type CbomMode = 'cbc' | 'ecb' | 'ccm' | 'gcm' | 'cfb' | 'ofb' | 'ctr' | 'other' | 'unknown';

export interface CbomAlgorithmProperties {
  primitive: CbomPrimitive;
  parameterSetIdentifier?: string;
  curve?: string;
  mode?: CbomMode;
  cryptoFunctions?: CbomCryptoFunction[];
  classicalSecurityLevel?: number;
  nistQuantumSecurityLevel?: number;
}

export interface CbomCertificateProperties {
  subjectName: string;
  issuerName: string;
  notValidBefore?: string;
  notValidAfter?: string;
  signatureAlgorithmRef: string;
  subjectPublicKeyRef: string;
  certificateFormat: 'X.509';
  certificateExtension?: string;
}

export interface CbomRelatedMaterialProperties {
  type: 'private-key' | 'public-key' | 'key';
  algorithmRef: string;
  size?: number;
}

export interface CbomCipherSuite {
  name?: string;
  algorithms: string[];
  identifiers?: string[];
}

export interface CbomProtocolProperties {
  type: 'tls';
  version?: string;
  cipherSuites: CbomCipherSuite[];
  cryptoRefArray?: string[];
}

export type CbomCryptoProperties =
  | { assetType: 'algorithm'; algorithmProperties: CbomAlgorithmProperties; oid?: string }
  | { assetType: 'certificate'; certificateProperties: CbomCertificateProperties }
  | {
      assetType: 'related-crypto-material';
      relatedCryptoMaterialProperties: CbomRelatedMaterialProperties;
    }
  | { assetType: 'protocol'; protocolProperties: CbomProtocolProperties };

export interface CbomOccurrence {
  location: string;
  line?: number;
  additionalContext?: string;
}

export interface CbomProperty {
  name: string;
  value: string;
}

export interface CbomComponent {
  type: 'cryptographic-asset' | 'library' | 'application';
  'bom-ref': string;
  group?: string;
  name: string;
  version?: string;
  purl?: string;
  hashes?: { alg: 'SHA-256'; content: string }[];
  cryptoProperties?: CbomCryptoProperties;
  evidence?: { occurrences: CbomOccurrence[] };
  properties?: CbomProperty[];
}

export interface CbomDependency {
  ref: string;
  dependsOn: string[];
  /** What a library implements (the algorithms its findings name). */
  provides?: string[];
}

/** A CycloneDX 1.6 JSON document: plain data, ready for JSON.stringify. */
export interface CbomDocument {
  $schema: 'http://cyclonedx.org/schema/bom-1.6.schema.json';
  bomFormat: 'CycloneDX';
  specVersion: '1.6';
  serialNumber: string;
  version: 1;
  metadata: {
    timestamp?: string;
    tools: { components: { type: 'application'; name: string; version: string }[] };
    component: CbomComponent;
  };
  components: CbomComponent[];
  dependencies: CbomDependency[];
}
