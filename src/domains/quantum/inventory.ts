import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import {
  isCandidateCryptoFile,
  isCandidateCryptoName,
  MAX_CRYPTO_FILE_BYTES,
  sniffCryptoContent,
} from '../../cryptography/certificates/candidates';
import { readCryptoArtifacts } from '../../cryptography/certificates/read-artifacts';
import type { CertificateFact, KeyFact } from '../../cryptography/certificates/types';
import {
  classifyAlgorithm,
  type QuantumClassification,
  type QuantumSeverity,
  type RecommendationUse,
  recommendationFor,
  severityOf,
  useOfAlgorithm,
} from '../../cryptography/classify';
import { cryptoLibraryOf } from '../../cryptography/libraries';
import {
  type SourceFinding,
  scanSourceTree,
  type VisitedFile,
} from '../../cryptography/source/scan';
import type { CryptoPrimitive, SourceAlgorithmUse } from '../../cryptography/source/types';

/**
 * One repository's cryptography inventory, read from a scan's checkout and dependency list
 * (docs/quantum.md): public-key uses in first-party source, keys and certificates committed to
 * the repository, dependencies that are cryptography libraries, and the symmetric algorithms
 * and hashes seen beside them (CBOM only). Reads files; writes nothing.
 */

export interface InventoryFinding {
  /** The same use across scans: its file, what it does and the line's text, not its number. */
  key: string;
  file: string | null;
  line: number | null;
  language: string | null;
  primitive: CryptoPrimitive;
  algorithm: string;
  curve: string | null;
  keySize: number | null;
  classification: QuantumClassification;
  severity: QuantumSeverity;
  recommendation: string;
  snippet: string | null;
  api: string | null;
  purl: string | null;
}

export interface InventoryCertificate extends Omit<CertificateFact, 'der'> {
  file: string;
}

export interface InventoryAlgorithm extends SourceAlgorithmUse {
  file: string;
}

export interface QuantumInventory {
  findings: InventoryFinding[];
  certificates: InventoryCertificate[];
  algorithms: InventoryAlgorithm[];
  filesRead: number;
  bytesRead: number;
  filesSkipped: number;
}

export interface InventoryDependency {
  ecosystem: string;
  name: string;
  purl: string;
}

/** At most this many CBOM algorithm occurrences are kept per repository. */
export const MAX_ALGORITHM_USES = 5000;
/** At most this many key and certificate files are read per scan. */
const MAX_ARTIFACT_FILES = 500;

function digest(parts: readonly (string | number | null | undefined)[]): string {
  return createHash('sha256')
    .update(parts.map((part) => String(part ?? '')).join('\u0000'))
    .digest('hex');
}

const USE_OF_PRIMITIVE: Partial<Record<CryptoPrimitive, RecommendationUse>> = {
  'key-agreement': 'key-establishment',
  encryption: 'key-establishment',
  signature: 'signature',
};

function judged(
  primitive: CryptoPrimitive,
  algorithm: string,
  keySize: number | null,
  curve: string | null,
): Pick<InventoryFinding, 'classification' | 'severity' | 'recommendation'> {
  const classification = classifyAlgorithm({
    algorithm,
    keySize: keySize ?? undefined,
    curve: curve ?? undefined,
  });
  return {
    classification,
    severity: severityOf(classification),
    recommendation: recommendationOf(primitive, algorithm),
  };
}

function recommendationOf(primitive: CryptoPrimitive, algorithm: string): string {
  return recommendationFor(USE_OF_PRIMITIVE[primitive] ?? useOfAlgorithm(algorithm));
}

/** Findings of one file's uses, keyed so that two identical lines stay two findings. */
function sourceFindings(file: string, uses: readonly SourceFinding[]): InventoryFinding[] {
  const seen = new Map<string, number>();
  return uses.map((use) => {
    const base = digest([file, use.primitive, use.algorithm, use.api, use.snippet]);
    const occurrence = seen.get(base) ?? 0;
    seen.set(base, occurrence + 1);
    const curve = use.curve ?? null;
    const keySize = use.keySize ?? null;
    return {
      key: occurrence === 0 ? base : `${base}#${occurrence}`,
      file,
      line: use.line,
      language: use.language,
      primitive: use.primitive,
      algorithm: use.algorithm,
      curve,
      keySize,
      ...judged(use.primitive, use.algorithm, keySize, curve),
      snippet: use.snippet,
      api: use.api,
      purl: null,
    };
  });
}

/** A committed key is key material: named by its algorithm and size, never by its bytes. */
function keyFinding(file: string, key: KeyFact, index: number): InventoryFinding {
  const algorithm = key.algorithm === 'unknown' ? 'RSA' : key.algorithm;
  const curve = key.curve ?? null;
  const keySize = key.keySize ?? null;
  const description = `${key.kind} key (${key.format}${key.encrypted ? ', encrypted' : ''})`;
  return {
    key: digest([file, 'key-material', key.kind, key.format, index]),
    file,
    line: key.line,
    language: null,
    primitive: 'key-material',
    algorithm,
    curve,
    keySize,
    // The key reader classified the key from its structure (size, curve, encryption): that
    // classification stands, only the recommendation comes from the use.
    classification: key.classification,
    severity: severityOf(key.classification),
    recommendation: recommendationOf('key-material', algorithm),
    snippet: description,
    api: null,
    purl: null,
  };
}

function libraryFindings(dependencies: readonly InventoryDependency[]): InventoryFinding[] {
  const findings = new Map<string, InventoryFinding>();
  for (const dependency of dependencies) {
    const library = cryptoLibraryOf(dependency.ecosystem, dependency.name);
    if (!library || library.postQuantum) continue;
    const key = digest(['library', dependency.ecosystem, dependency.name]);
    if (findings.has(key)) continue;
    findings.set(key, {
      key,
      file: null,
      line: null,
      language: null,
      primitive: 'library',
      algorithm: library.algorithm,
      curve: null,
      keySize: null,
      ...judged('library', library.algorithm, null, null),
      snippet: null,
      api: dependency.name,
      purl: dependency.purl,
    });
  }
  return [...findings.values()];
}

/**
 * Whether a visited file is read for certificates and keys: a source file by a look at the text
 * the walk read; any other file by its name first, so that only the few named like keys and
 * certificates cost a stat (for the size cap), and the rest of the tree nothing at all.
 */
function isArtifactFile(file: VisitedFile): boolean {
  if (file.text !== undefined) {
    return (
      (file.text.includes('-----BEGIN ') || file.text.includes('ssh-')) &&
      sniffCryptoContent(file.path, file.bytes ?? Buffer.from(file.text))
    );
  }
  if (!isCandidateCryptoName(file.path)) return false;
  try {
    return isCandidateCryptoFile(file.path, statSync(file.absolutePath).size);
  } catch {
    return false;
  }
}

function readArtifacts(files: readonly VisitedFile[], now: Date) {
  const certificates: InventoryCertificate[] = [];
  const findings: InventoryFinding[] = [];
  for (const file of files.slice(0, MAX_ARTIFACT_FILES)) {
    let bytes: Buffer;
    try {
      // A source file holding PEM text was read by the walk already: its bytes are reused.
      bytes = file.bytes ?? readFileSync(file.absolutePath);
    } catch {
      continue;
    }
    if (bytes.length > MAX_CRYPTO_FILE_BYTES) continue;
    const artifacts = readCryptoArtifacts(file.path, bytes, now);
    for (const { der: _der, ...certificate } of artifacts.certificates) {
      certificates.push({ ...certificate, file: file.path });
    }
    artifacts.keys.forEach((key, index) => {
      findings.push(keyFinding(file.path, key, index));
    });
  }
  return { certificates, findings };
}

/**
 * The part of the inventory read from the checkout's files alone (source, keys, certificates):
 * it needs no dependency list, so a scan reads it in its own thread while extraction runs
 * (./inventory-thread.ts). Plain data, so it crosses a thread boundary as it is.
 */
export type CodeInventory = QuantumInventory;

/** Reads the source, keys and certificates of a checkout (no dependency findings yet). */
export async function collectCodeInventory(directory: string, now: Date): Promise<CodeInventory> {
  const artifactFiles: VisitedFile[] = [];
  const source = await scanSourceTree(directory, {
    visitFile: (file) => {
      if (!isArtifactFile(file)) return;
      const { path, absolutePath, bytes } = file;
      artifactFiles.push(bytes ? { path, absolutePath, bytes } : { path, absolutePath });
    },
  });
  const artifacts = readArtifacts(artifactFiles, now);
  const findings = [
    ...source.files.flatMap((file) => sourceFindings(file.path, file.uses)),
    ...artifacts.findings,
  ];
  const algorithms = source.files
    .flatMap((file) => file.algorithms.map((use) => ({ ...use, file: file.path })))
    .slice(0, MAX_ALGORITHM_USES);
  const skipped = Object.values(source.skipped).reduce((sum, count) => sum + count, 0);
  return {
    findings,
    certificates: artifacts.certificates,
    algorithms,
    filesRead: source.filesRead + artifactFiles.length,
    bytesRead: source.bytesRead,
    filesSkipped: skipped,
  };
}

/** The whole inventory: the checkout's part plus the dependencies that are crypto libraries. */
export function withLibraryFindings(
  code: CodeInventory,
  dependencies: readonly InventoryDependency[],
): QuantumInventory {
  return { ...code, findings: [...code.findings, ...libraryFindings(dependencies)] };
}

/** Reads the inventory of a checkout whose dependencies were extracted already. */
export async function collectInventory(
  directory: string,
  dependencies: readonly InventoryDependency[],
  now: Date,
): Promise<QuantumInventory> {
  return withLibraryFindings(await collectCodeInventory(directory, now), dependencies);
}
