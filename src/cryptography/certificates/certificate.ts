/**
 * One X.509 certificate, described: Node's X509Certificate for the names, the CA flag and the
 * self-signature, the ASN.1 schema for what Node 20 does not expose (the signature algorithm,
 * the key's OID and parameters, exact validity dates). Shared by the repository reader and the
 * TLS probe (peer chains).
 */
import { createHash, X509Certificate } from 'node:crypto';
import { AsnConvert } from '@peculiar/asn1-schema';
import { type AlgorithmIdentifier, Certificate } from '@peculiar/asn1-x509';
import { classifyCertificate } from './classification.js';
import { algorithmIdentifierOf, childrenOf, firstElementLength, parseDer } from './der.js';
import { describeSubjectPublicKeyInfo } from './key-structures.js';
import { hashNameOf, type SignatureAlgorithmInfo, signatureAlgorithmOf } from './oids.js';
import type { CertificateFact } from './types.js';

/** Thrown by describeCertificate for bytes that are not a readable certificate. */
export class CertificateReadError extends Error {
  override name = 'CertificateReadError';
}

/** RSASSA-PSS names its hash in the parameters: `[0] hashAlgorithm DEFAULT sha1`. */
function pssHash(parameters: ArrayBuffer | null | undefined): string {
  if (!parameters) return 'SHA-1';
  for (const child of childrenOf(parseDer(new Uint8Array(parameters)))) {
    if (child.idBlock.tagClass === 3 && child.idBlock.tagNumber === 0) {
      const oid = algorithmIdentifierOf(childrenOf(child)[0])?.oid;
      return (oid && hashNameOf(oid)) ?? oid ?? 'SHA-1';
    }
  }
  return 'SHA-1';
}

function signatureOf(algorithm: AlgorithmIdentifier): SignatureAlgorithmInfo {
  const info = signatureAlgorithmOf(algorithm.algorithm);
  if (info.name !== 'RSASSA-PSS') return info;
  return { ...info, hash: pssHash(algorithm.parameters) };
}

/** Lower-case hex without a sign byte; `00` for zero. */
function serialHex(serial: ArrayBuffer): string {
  const bytes = new Uint8Array(serial);
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0) start++;
  return Buffer.from(bytes.subarray(start)).toString('hex') || '00';
}

/** Node prints one attribute a line; the inventory shows them on one. */
function distinguishedName(name: string): string {
  return name.split('\n').join(', ');
}

function isSelfSigned(node: X509Certificate): boolean {
  if (node.subject !== node.issuer) return false;
  try {
    return node.verify(node.publicKey);
  } catch {
    // A key OpenSSL cannot load here (ML-DSA, composite): the names are all there is to go on.
    return true;
  }
}

function parseBoth(der: Buffer): { parsed: Certificate; node: X509Certificate } {
  let parsed: Certificate;
  try {
    parsed = AsnConvert.parse(der, Certificate);
  } catch {
    throw new CertificateReadError('not an X.509 certificate (the DER does not parse)');
  }
  try {
    return { parsed, node: new X509Certificate(der) };
  } catch {
    throw new CertificateReadError('an X.509 structure that OpenSSL does not accept');
  }
}

/** True when the bytes start with something that parses as an X.509 certificate. */
export function isCertificateDer(der: Uint8Array): boolean {
  try {
    AsnConvert.parse(der.subarray(0, firstElementLength(der) ?? der.length), Certificate);
    return true;
  } catch {
    return false;
  }
}

function isoDate(date: Date): string {
  if (Number.isNaN(date.getTime())) throw new CertificateReadError('an unreadable validity date');
  return date.toISOString();
}

/**
 * Describe one DER certificate. Throws CertificateReadError (a short message, never the bytes)
 * when it is not one; `now` decides `expired`.
 */
export function describeCertificate(der: Buffer, now: Date): CertificateFact {
  const { parsed, node } = parseBoth(der);
  const tbs = parsed.tbsCertificate;
  const signature = signatureOf(parsed.signatureAlgorithm);
  const key = describeSubjectPublicKeyInfo(tbs.subjectPublicKeyInfo);
  const notAfter = tbs.validity.notAfter.getTime();
  return {
    subject: distinguishedName(node.subject),
    issuer: distinguishedName(node.issuer),
    serialNumber: serialHex(tbs.serialNumber),
    notBefore: isoDate(tbs.validity.notBefore.getTime()),
    notAfter: isoDate(notAfter),
    keyAlgorithm: key.algorithm,
    keyAlgorithmOid: tbs.subjectPublicKeyInfo.algorithm.algorithm,
    ...(key.keySize !== undefined && { keySize: key.keySize }),
    ...(key.curve !== undefined && { curve: key.curve }),
    ...(key.parameterSet !== undefined && { parameterSet: key.parameterSet }),
    signatureAlgorithm: signature.name,
    signatureAlgorithmOid: parsed.signatureAlgorithm.algorithm,
    ...(signature.hash !== undefined && { signatureHash: signature.hash }),
    fingerprintSha256: createHash('sha256').update(der).digest('hex'),
    classification: classifyCertificate(key, signature),
    expired: notAfter.getTime() < now.getTime(),
    selfSigned: isSelfSigned(node),
    isCa: node.ca,
    der: Buffer.from(der),
  };
}
