/**
 * The certificates and keys in one repository file: a Java keystore (by its magic), a DER
 * structure (certificate, PKCS#12, PKCS#7, public or private key), or text holding PEM blocks
 * and OpenSSH public keys. Never throws and never hangs: every format reader is bounded, and
 * what cannot be read becomes a short problem. Key bytes are never part of the result.
 */
import { isCandidateCryptoFile, MAX_CRYPTO_FILE_BYTES } from './candidates.js';
import { isCertificateDer } from './certificate.js';
import { ArtifactCollector } from './collector.js';
import { javaKeystoreType, readJavaKeystore } from './java-keystore.js';
import {
  describeOpensslDsaDer,
  describePkcs1PrivateDer,
  describePkcs1PublicDer,
  describePkcs8Der,
  describeSec1Der,
  describeSpkiDer,
  isEncryptedPkcs8Der,
  type KeyDescription,
} from './key-structures.js';
import { readPemText } from './pem-artifacts.js';
import { readPkcs7Certificates } from './pkcs7.js';
import { type KeystoreContents, readPkcs12 } from './pkcs12.js';
import type { CertificateContainer, CryptoArtifacts, KeyFormat } from './types.js';

const BINARY_LINE = 1;

/** Keystore keys take their algorithm from their own bag, else from their certificate. */
function keystoreKeyDescription(
  key: KeystoreContents['keys'][number],
  certificates: Map<string, KeyDescription>,
): { description: KeyDescription; from?: 'key' | 'certificate' } {
  if (key.description) return { description: key.description, from: 'key' };
  const fromCertificate = key.keyId ? certificates.get(key.keyId) : undefined;
  if (fromCertificate) return { description: fromCertificate, from: 'certificate' };
  return { description: { algorithm: 'unknown' } };
}

export function addKeystore(
  contents: KeystoreContents,
  container: CertificateContainer & KeyFormat,
  collector: ArtifactCollector,
): void {
  const byKeyId = new Map<string, KeyDescription>();
  for (const certificate of contents.certificates) {
    const fact = collector.addCertificate(certificate.der, {
      line: BINARY_LINE,
      container,
      alias: certificate.alias,
    });
    if (fact && certificate.keyId) {
      byKeyId.set(certificate.keyId, {
        algorithm: fact.keyAlgorithm,
        ...(fact.keySize !== undefined && { keySize: fact.keySize }),
        ...(fact.curve !== undefined && { curve: fact.curve }),
        ...(fact.parameterSet !== undefined && { parameterSet: fact.parameterSet }),
      });
    }
  }
  for (const key of contents.keys) {
    const { description, from } = keystoreKeyDescription(key, byKeyId);
    collector.addKey(description, {
      kind: 'private',
      line: BINARY_LINE,
      format: container,
      encrypted: key.encrypted,
      label: key.alias,
      ...(from === 'certificate' && { algorithmFrom: from }),
    });
  }
  for (const problem of contents.problems) collector.problem(problem);
}

/** The key structures a DER file can hold, tried in turn after the certificate formats. */
const DER_KEYS: {
  read: (der: Buffer) => KeyDescription | undefined;
  kind: 'private' | 'public';
  format: KeyFormat;
}[] = [
  { read: describeSpkiDer, kind: 'public', format: 'spki' },
  { read: describePkcs8Der, kind: 'private', format: 'pkcs8' },
  { read: describePkcs1PrivateDer, kind: 'private', format: 'pkcs1' },
  { read: describeSec1Der, kind: 'private', format: 'sec1' },
  { read: describePkcs1PublicDer, kind: 'public', format: 'pkcs1' },
  { read: describeOpensslDsaDer, kind: 'private', format: 'openssl-dsa' },
];

/** A DER file; false when it is none of the structures this reader knows. */
export function readDerInto(der: Buffer, line: number, collector: ArtifactCollector): boolean {
  if (isCertificateDer(der)) {
    collector.addCertificate(der, { line, container: 'der' });
    return true;
  }
  const pkcs12 = readPkcs12(der, collector.kdfBudget);
  if (pkcs12) {
    addKeystore(pkcs12, 'pkcs12', collector);
    return true;
  }
  const bundle = readPkcs7Certificates(der, collector.remaining());
  if (bundle) {
    for (const certificate of bundle)
      collector.addCertificate(certificate, { line, container: 'pkcs7' });
    return true;
  }
  for (const { read, kind, format } of DER_KEYS) {
    const description = read(der);
    if (description) {
      collector.addKey(description, { kind, line, format, encrypted: false });
      return true;
    }
  }
  if (isEncryptedPkcs8Der(der)) {
    collector.addKey(
      { algorithm: 'unknown' },
      { kind: 'private', line, format: 'pkcs8', encrypted: true },
    );
    return true;
  }
  return false;
}

function readContent(bytes: Buffer, collector: ArtifactCollector): void {
  const keystore = javaKeystoreType(bytes);
  if (keystore) {
    addKeystore(readJavaKeystore(bytes), keystore, collector);
    return;
  }
  // A DER SEQUENCE; text starting with "0" falls through to the text reader.
  if (bytes[0] === 0x30 && readDerInto(bytes, BINARY_LINE, collector)) return;
  readPemText(bytes.toString('latin1'), collector);
}

/**
 * Everything readable in one file. `path` only decides whether finding nothing is worth a
 * problem (a file named like a certificate or key); `now` decides which certificates expired.
 */
export function readCryptoArtifacts(path: string, bytes: Buffer, now: Date): CryptoArtifacts {
  const collector = new ArtifactCollector(now);
  if (bytes.length > MAX_CRYPTO_FILE_BYTES) {
    collector.problem(`larger than ${MAX_CRYPTO_FILE_BYTES} bytes; not read`);
    return collector.result();
  }
  try {
    readContent(bytes, collector);
  } catch (error) {
    // A bug or an exhausted stack on hostile input: report it by kind, never with file bytes.
    collector.problem(`reading stopped early (${error instanceof Error ? error.name : 'error'})`);
  }
  if (collector.isEmpty() && isCandidateCryptoFile(path, bytes.length)) {
    collector.problem('no certificate, key or keystore recognised');
  }
  return collector.result();
}
