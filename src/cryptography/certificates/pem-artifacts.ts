/**
 * Text files: each PEM block by its label, then the OpenSSH public key lines. Labels this reader
 * does not inventory (CERTIFICATE REQUEST, X509 CRL, EC PARAMETERS, PGP ...) are passed over
 * without a problem.
 */
import type { ArtifactCollector } from './collector.js';
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
import { findPemBlocks, type PemBlock } from './pem.js';
import { readPkcs7Certificates } from './pkcs7.js';
import { describeOpenSshPrivateKey, findSshPublicKeys } from './ssh.js';
import type { KeyAlgorithm, KeyFormat } from './types.js';

const MAX_PEM_BLOCKS = 512;

/** Unencrypted key labels: how to read the body, and what the format is called. */
const KEY_LABELS: Record<
  string,
  {
    read: (der: Buffer) => KeyDescription | undefined;
    kind: 'private' | 'public';
    format: KeyFormat;
    /** The algorithm the label itself names (for OpenSSL's legacy encrypted keys). */
    algorithm?: KeyAlgorithm;
  }
> = {
  'PUBLIC KEY': { read: describeSpkiDer, kind: 'public', format: 'spki' },
  'RSA PUBLIC KEY': { read: describePkcs1PublicDer, kind: 'public', format: 'pkcs1' },
  'PRIVATE KEY': { read: describePkcs8Der, kind: 'private', format: 'pkcs8' },
  'RSA PRIVATE KEY': {
    read: describePkcs1PrivateDer,
    kind: 'private',
    format: 'pkcs1',
    algorithm: 'RSA',
  },
  'EC PRIVATE KEY': { read: describeSec1Der, kind: 'private', format: 'sec1', algorithm: 'ECDSA' },
  'DSA PRIVATE KEY': {
    read: describeOpensslDsaDer,
    kind: 'private',
    format: 'openssl-dsa',
    algorithm: 'DSA',
  },
};

const CERTIFICATE_LABELS = new Set(['CERTIFICATE', 'X509 CERTIFICATE', 'TRUSTED CERTIFICATE']);
const PKCS7_LABELS = new Set(['PKCS7', 'PKCS #7 SIGNED DATA', 'CMS']);

/** OpenSSL's legacy PEM encryption (RFC 1421 headers): the body is ciphertext. */
function isLegacyEncrypted(block: PemBlock): boolean {
  return block.headers.some((header) => /^Proc-Type:\s*4,\s*ENCRYPTED/i.test(header));
}

function readKeyBlock(block: PemBlock, bytes: Buffer, collector: ArtifactCollector): boolean {
  const { label, line } = block;
  const spec = KEY_LABELS[label];
  if (spec) {
    if (isLegacyEncrypted(block)) {
      const algorithm = spec.algorithm ?? 'unknown';
      collector.addKey(
        { algorithm },
        { kind: spec.kind, line, format: spec.format, encrypted: true },
      );
      return true;
    }
    const description = spec.read(bytes);
    if (description)
      collector.addKey(description, {
        kind: spec.kind,
        line,
        format: spec.format,
        encrypted: false,
      });
    else collector.problem(`line ${line}: a ${label} that could not be read`);
    return true;
  }
  if (label === 'ENCRYPTED PRIVATE KEY') {
    if (isEncryptedPkcs8Der(bytes)) {
      // The algorithm is inside the encryption: it cannot be known without the password.
      collector.addKey(
        { algorithm: 'unknown' },
        { kind: 'private', line, format: 'pkcs8', encrypted: true },
      );
    } else collector.problem(`line ${line}: an ENCRYPTED PRIVATE KEY that could not be read`);
    return true;
  }
  if (label === 'OPENSSH PRIVATE KEY') {
    const key = describeOpenSshPrivateKey(bytes);
    if (!key) collector.problem(`line ${line}: an OPENSSH PRIVATE KEY that could not be read`);
    for (const description of key?.keys ?? []) {
      collector.addKey(description, {
        kind: 'private',
        line,
        format: 'openssh',
        encrypted: key?.encrypted ?? false,
      });
    }
    return true;
  }
  return false;
}

/** The labels this reader inventories; other blocks are passed over unread. */
function isInventoried(label: string): boolean {
  return (
    CERTIFICATE_LABELS.has(label) ||
    PKCS7_LABELS.has(label) ||
    label in KEY_LABELS ||
    label === 'ENCRYPTED PRIVATE KEY' ||
    label === 'OPENSSH PRIVATE KEY'
  );
}

function readBlock(block: PemBlock, collector: ArtifactCollector): void {
  const { label, line, bytes } = block;
  if (!bytes) {
    collector.problem(`line ${line}: the ${label} block is not valid base64`);
    return;
  }
  if (CERTIFICATE_LABELS.has(label)) {
    collector.addCertificate(bytes, { line, container: 'pem' });
    return;
  }
  if (PKCS7_LABELS.has(label)) {
    const certificates = readPkcs7Certificates(bytes, collector.remaining());
    if (!certificates)
      collector.problem(`line ${line}: a ${label} block that is not a certificate bundle`);
    for (const certificate of certificates ?? [])
      collector.addCertificate(certificate, { line, container: 'pkcs7' });
    return;
  }
  readKeyBlock(block, bytes, collector);
}

/** PEM blocks and OpenSSH public key lines in a text. */
export function readPemText(text: string, collector: ArtifactCollector): void {
  if (text.includes('-----BEGIN ')) {
    const scan = findPemBlocks(text, MAX_PEM_BLOCKS, isInventoried);
    for (const block of scan.blocks) readBlock(block, collector);
    for (const problem of scan.problems) collector.problem(problem);
  }
  for (const key of findSshPublicKeys(text, collector.remaining())) {
    const { line, label, ...description } = key;
    collector.addKey(description, {
      kind: 'public',
      line,
      format: 'ssh-public',
      encrypted: false,
      label,
    });
  }
}
