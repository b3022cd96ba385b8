/**
 * Gathers what one file yields, with the per-file bounds: a cap on facts, on problems and on the
 * key-derivation work a PKCS#12 file may ask for.
 */
import { CertificateReadError, describeCertificate } from './certificate.js';
import { classifyKey } from './classification.js';
import { firstElementLength } from './der.js';
import type { KeyDescription } from './key-structures.js';
import type { KdfBudget } from './password-decryption.js';
import type {
  CertificateContainer,
  CertificateFact,
  CryptoArtifacts,
  KeyFact,
  KeyFormat,
} from './types.js';

/** About a second of parsing at worst; the largest CA bundles hold some 150 certificates. */
export const MAX_FACTS_PER_FILE = 512;
const MAX_PROBLEMS = 20;
/** Dozens of encrypted parts at the tools' defaults; under half a second of PBKDF2 at worst. */
const KDF_ITERATIONS_PER_FILE = 400_000;

export interface CertificateOrigin {
  line: number;
  container: CertificateContainer;
  alias?: string | undefined;
}

export interface KeyOrigin {
  kind: KeyFact['kind'];
  line: number;
  format: KeyFormat;
  encrypted: boolean;
  label?: string | undefined;
  algorithmFrom?: KeyFact['algorithmFrom'];
}

export class ArtifactCollector {
  readonly certificates: CertificateFact[] = [];
  readonly keys: KeyFact[] = [];
  private readonly problems: string[] = [];
  private droppedProblems = 0;
  private droppedFacts = 0;
  readonly kdfBudget: KdfBudget = { iterations: KDF_ITERATIONS_PER_FILE };

  constructor(readonly now: Date) {}

  remaining(): number {
    return Math.max(0, MAX_FACTS_PER_FILE - this.certificates.length - this.keys.length);
  }

  problem(text: string): void {
    if (this.problems.length < MAX_PROBLEMS) this.problems.push(text);
    else this.droppedProblems++;
  }

  /** Describe and keep one certificate; the DER may carry trailing bytes (TRUSTED CERTIFICATE). */
  addCertificate(bytes: Buffer, origin: CertificateOrigin): CertificateFact | undefined {
    if (this.remaining() === 0) {
      this.droppedFacts++;
      return undefined;
    }
    const der = bytes.subarray(0, firstElementLength(bytes) ?? bytes.length);
    try {
      const fact: CertificateFact = {
        ...describeCertificate(der, this.now),
        line: origin.line,
        container: origin.container,
        ...(origin.alias !== undefined && { alias: origin.alias }),
      };
      this.certificates.push(fact);
      return fact;
    } catch (error) {
      const reason = error instanceof CertificateReadError ? error.message : 'unreadable';
      this.problem(`line ${origin.line}: a certificate that could not be read (${reason})`);
      return undefined;
    }
  }

  addKey(description: KeyDescription, origin: KeyOrigin): void {
    if (this.remaining() === 0) {
      this.droppedFacts++;
      return;
    }
    this.keys.push({
      kind: origin.kind,
      algorithm: description.algorithm,
      ...(description.keySize !== undefined && { keySize: description.keySize }),
      ...(description.curve !== undefined && { curve: description.curve }),
      ...(description.parameterSet !== undefined && { parameterSet: description.parameterSet }),
      line: origin.line,
      format: origin.format,
      encrypted: origin.encrypted,
      ...(origin.algorithmFrom !== undefined && { algorithmFrom: origin.algorithmFrom }),
      ...(origin.label !== undefined && { label: origin.label }),
      classification: classifyKey(description),
    });
  }

  isEmpty(): boolean {
    return this.certificates.length === 0 && this.keys.length === 0 && this.problems.length === 0;
  }

  result(): CryptoArtifacts {
    const problems = [...this.problems];
    if (this.droppedFacts > 0) {
      problems.push(
        `more than ${MAX_FACTS_PER_FILE} certificates and keys; ${this.droppedFacts} not listed`,
      );
    }
    if (this.droppedProblems > 0) problems.push(`${this.droppedProblems} more problems`);
    return { certificates: this.certificates, keys: this.keys, problems };
  }
}
