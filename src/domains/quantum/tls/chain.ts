import { describeCertificate } from '../../../cryptography/certificates/certificate';
import type { CertificateFact } from '../../../cryptography/certificates/types';
import type { StoredCertificateFact } from './tables';

/** The facts an observation keeps of one certificate: no DER, no OIDs. */
export function storedFact(fact: CertificateFact): StoredCertificateFact {
  return {
    subject: fact.subject,
    issuer: fact.issuer,
    serialNumber: fact.serialNumber,
    notBefore: fact.notBefore,
    notAfter: fact.notAfter,
    keyAlgorithm: fact.keyAlgorithm,
    keySize: fact.keySize ?? null,
    curve: fact.curve ?? null,
    parameterSet: fact.parameterSet ?? null,
    signatureAlgorithm: fact.signatureAlgorithm,
    fingerprintSha256: fact.fingerprintSha256,
    classification: fact.classification,
    selfSigned: fact.selfSigned,
    isCa: fact.isCa,
  };
}

/**
 * A peer's chain (DER, leaf first) described certificate by certificate; one that cannot be read
 * is left out and said in `problems` (a server sends whatever it likes).
 */
export function describeChain(
  chain: readonly Buffer[],
  now: Date,
  problems: string[],
): StoredCertificateFact[] {
  const facts: StoredCertificateFact[] = [];
  chain.forEach((der, index) => {
    try {
      facts.push(storedFact(describeCertificate(der, now)));
    } catch {
      problems.push(`certificate ${index + 1} of the chain could not be read`);
    }
  });
  return facts;
}
