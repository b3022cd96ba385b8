import { PackageURL } from 'packageurl-js';
import {
  type AlgorithmAsset,
  boundedName,
  type KeyUse,
  publicKeyAsset,
  signatureAsset,
} from './cbom-algorithms.js';
import { symmetricAsset } from './cbom-symmetric.js';
import { describeCipherSuite } from './cbom-tls.js';
import type {
  CbomAlgorithmInput,
  CbomCertificateInput,
  CbomCipherSuite,
  CbomComponent,
  CbomCryptoFunction,
  CbomDependency,
  CbomDocument,
  CbomFindingInput,
  CbomInput,
  CbomOccurrence,
  CbomProtocolInput,
  CbomRelatedMaterialProperties,
  CbomSymmetricKind,
} from './cbom-types.js';
import { deterministicUuid, isoSeconds } from './export-model.js';

export type * from './cbom-types.js';

/**
 * The CycloneDX 1.6 cryptography bill of materials of one repository (docs/quantum.md, "The
 * CBOM"). Every distinct algorithm is one `cryptographic-asset` component (assetType algorithm)
 * whose `evidence.occurrences` are the source lines and files that use it; certificates, keys
 * (never their bytes) and TLS endpoints are components that reference their algorithms by
 * bom-ref; a cryptography library `provides` the algorithms its findings name. Pure and
 * deterministic: the same input gives the same bytes (the serial number is derived from the
 * content, the timestamp is `generatedAt`), whatever the order of the input rows.
 */
export function writeCbom(input: CbomInput): CbomDocument {
  const draft: Draft = { entries: new Map(), certificatesByEndpoint: new Map() };
  for (const finding of [...input.findings].sort(byFindingId)) addFinding(draft, finding);
  for (const use of input.algorithms) addAlgorithmUse(draft, use);
  for (const certificate of [...input.certificates].sort(byCertificateOrder)) {
    addCertificate(draft, certificate);
  }
  for (const protocol of input.protocols) addProtocol(draft, protocol);

  const rootRef = `repository:${input.repository.id}`;
  const entries = [...draft.entries.values()].sort((a, b) => compare(a.ref, b.ref));
  const timestamp = validDate(input.generatedAt) ? isoSeconds(input.generatedAt) : undefined;
  const body = {
    metadata: {
      ...(timestamp ? { timestamp } : {}),
      tools: {
        components: [
          { type: 'application' as const, name: input.tool.name, version: input.tool.version },
        ],
      },
      component: repositoryComponent(input.repository, rootRef),
    },
    components: entries.map(componentOf),
    dependencies: [
      { ref: rootRef, dependsOn: sorted(entries.filter((e) => e.root).map((e) => e.ref)) },
      ...entries.map(dependencyOf),
    ],
  };
  return {
    $schema: 'http://cyclonedx.org/schema/bom-1.6.schema.json',
    bomFormat: 'CycloneDX',
    specVersion: '1.6',
    serialNumber: `urn:uuid:${deterministicUuid(`cbom:${JSON.stringify(body)}`)}`,
    version: 1,
    ...body,
  };
}

/** Free text (subjects, snippets) is cut here: a hostile value cannot make a huge document. */
const MAX_TEXT = 4096;
/** Occurrences kept per component (the first in file and line order). */
const MAX_OCCURRENCES = 10_000;

interface Entry {
  ref: string;
  kind: 'algorithm' | 'protocol' | 'plain';
  /** The component without evidence (algorithms and protocols are finished at the end). */
  component: CbomComponent;
  asset?: AlgorithmAsset;
  functions: Set<CbomCryptoFunction>;
  suites: Map<string, CbomCipherSuite>;
  cryptoRefs: Set<string>;
  occurrences: Map<string, CbomOccurrence>;
  dependsOn: Set<string>;
  provides: Set<string>;
  /** The repository itself holds or uses it (metadata.component depends on it). */
  root: boolean;
}

interface Draft {
  entries: Map<string, Entry>;
  certificatesByEndpoint: Map<string, Set<string>>;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function sorted(values: Iterable<string>): string[] {
  return [...new Set(values)].sort(compare);
}

function byFindingId(a: CbomFindingInput, b: CbomFindingInput): number {
  return compare(a.findingId, b.findingId);
}

/** Repository files before TLS observations, so a merged certificate's extension is a file's. */
function byCertificateOrder(a: CbomCertificateInput, b: CbomCertificateInput): number {
  const key = (c: CbomCertificateInput) =>
    [c.provenance, c.file ?? '', String(c.line ?? 0).padStart(10, '0'), c.certificateId].join(
      '\u0000',
    );
  return compare(key(a), key(b));
}

function validDate(date: Date): boolean {
  return date instanceof Date && !Number.isNaN(date.getTime());
}

function text(value: string | null | undefined): string {
  const raw = value ?? '';
  return raw.length > MAX_TEXT ? `${raw.slice(0, MAX_TEXT)}…` : raw;
}

function entryFor(
  draft: Draft,
  ref: string,
  kind: Entry['kind'],
  make: () => CbomComponent,
): Entry {
  const seen = draft.entries.get(ref);
  if (seen) return seen;
  const created: Entry = {
    ref,
    kind,
    component: make(),
    functions: new Set(),
    suites: new Map(),
    cryptoRefs: new Set(),
    occurrences: new Map(),
    dependsOn: new Set(),
    provides: new Set(),
    root: false,
  };
  draft.entries.set(ref, created);
  return created;
}

function algorithmEntry(draft: Draft, asset: AlgorithmAsset): Entry {
  const ref = `crypto/algorithm/${asset.primitive}/${asset.name}`;
  const entry = entryFor(draft, ref, 'algorithm', () => ({
    type: 'cryptographic-asset',
    'bom-ref': ref,
    name: asset.name,
  }));
  entry.asset ??= asset;
  return entry;
}

function occurrence(
  location: string | null | undefined,
  line: number | null | undefined,
  context: string,
): CbomOccurrence | undefined {
  const where = text(location);
  if (where === '') return undefined;
  const valid = line !== null && line !== undefined && Number.isInteger(line) && line >= 1;
  return {
    location: where,
    ...(valid ? { line } : {}),
    ...(context ? { additionalContext: text(context) } : {}),
  };
}

function addOccurrence(entry: Entry, found: CbomOccurrence | undefined): void {
  if (!found) return;
  const line = String(found.line ?? 0).padStart(10, '0');
  const key = [found.location, line, found.additionalContext ?? ''].join('\u0000');
  entry.occurrences.set(key, found);
}

const USE_OF_PRIMITIVE: Readonly<Record<CbomFindingInput['primitive'], KeyUse>> = {
  'key-generation': 'other',
  'key-agreement': 'key-agreement',
  signature: 'signature',
  encryption: 'encryption',
  'key-material': 'other',
  library: 'other',
};

/** What the finding's API does with the algorithm, in the 1.6 enum (it has no key-agree value). */
function functionOf(finding: CbomFindingInput, asset: AlgorithmAsset): CbomCryptoFunction | null {
  const api = finding.api ?? '';
  const kem = asset.primitive === 'kem';
  switch (finding.primitive) {
    case 'key-generation':
      return 'keygen';
    case 'signature':
      return /verif/i.test(api) ? 'verify' : 'sign';
    case 'encryption':
    case 'key-agreement':
      if (kem) return /decap/i.test(api) ? 'decapsulate' : 'encapsulate';
      if (finding.primitive === 'key-agreement') return 'keyderive';
      return /decrypt|unwrap/i.test(api) ? 'decrypt' : 'encrypt';
    default:
      return null;
  }
}

function findingContext(finding: CbomFindingInput): string {
  const api = finding.api ? ` via ${finding.api}` : '';
  const snippet = finding.snippet ? `: ${finding.snippet}` : '';
  return `${finding.primitive}${api}${snippet}`;
}

function addFinding(draft: Draft, finding: CbomFindingInput): void {
  const asset = publicKeyAsset({
    algorithm: finding.algorithm,
    keySize: finding.keySize,
    curve: finding.curve,
    use: USE_OF_PRIMITIVE[finding.primitive] ?? 'other',
  });
  const algorithm = algorithmEntry(draft, asset);
  if (finding.primitive === 'library') {
    addLibrary(draft, finding, algorithm.ref);
    return;
  }
  const found = occurrence(finding.file, finding.line, findingContext(finding));
  if (finding.primitive === 'key-material') addKey(draft, finding, asset, algorithm.ref, found);
  const fn = functionOf(finding, asset);
  if (fn) algorithm.functions.add(fn);
  addOccurrence(algorithm, found);
  if (found) algorithm.root = true;
}

/** Private or public, from the API (`ParsePKCS1PrivateKey`) or the key's description. */
function keyType(finding: CbomFindingInput): CbomRelatedMaterialProperties['type'] {
  for (const said of [finding.api, finding.snippet]) {
    if (!said) continue;
    if (/private|decapsulation/i.test(said)) return 'private-key';
    if (/public|encapsulation|^ssh-/i.test(said)) return 'public-key';
  }
  return 'key';
}

function addKey(
  draft: Draft,
  finding: CbomFindingInput,
  asset: AlgorithmAsset,
  algorithmRef: string,
  found: CbomOccurrence | undefined,
): void {
  const type = keyType(finding);
  const size = finding.keySize;
  const ref = `crypto/key/${boundedName(finding.findingId)}`;
  const entry = entryFor(draft, ref, 'plain', () => ({
    type: 'cryptographic-asset',
    'bom-ref': ref,
    name: `${asset.name} ${type.replace('-', ' ')}`,
    cryptoProperties: {
      assetType: 'related-crypto-material',
      relatedCryptoMaterialProperties: {
        type,
        algorithmRef,
        ...(size !== null && Number.isInteger(size) && size > 0 ? { size } : {}),
      },
    },
  }));
  entry.dependsOn.add(algorithmRef);
  addOccurrence(entry, found);
  entry.root = true;
}

function libraryIdentity(
  finding: CbomFindingInput,
): Pick<CbomComponent, 'bom-ref' | 'group' | 'name' | 'version' | 'purl'> {
  try {
    const purl = PackageURL.fromString(finding.purl ?? '');
    const canonical = purl.toString();
    return {
      'bom-ref': canonical,
      ...(purl.namespace ? { group: purl.namespace } : {}),
      name: purl.name,
      ...(purl.version ? { version: purl.version } : {}),
      purl: canonical,
    };
  } catch {
    const name = boundedName(finding.api) || 'unknown library';
    return { 'bom-ref': `library/${boundedName(finding.findingId)}`, name };
  }
}

function addLibrary(draft: Draft, finding: CbomFindingInput, algorithmRef: string): void {
  const identity = libraryIdentity(finding);
  const ref = identity['bom-ref'];
  const entry = entryFor(draft, ref, 'plain', () => ({ type: 'library', ...identity }));
  entry.provides.add(algorithmRef);
  entry.root = true;
}

const FUNCTION_OF_KIND: Readonly<Partial<Record<CbomSymmetricKind, CbomCryptoFunction>>> = {
  hash: 'digest',
  mac: 'tag',
  kdf: 'keyderive',
};

function addAlgorithmUse(draft: Draft, use: CbomAlgorithmInput): void {
  const asset = symmetricAsset(use.algorithm, use.kind);
  const entry = algorithmEntry(draft, asset);
  const fn = FUNCTION_OF_KIND[use.kind];
  if (fn) entry.functions.add(fn);
  const raw = boundedName(use.algorithm);
  addOccurrence(entry, occurrence(use.file, use.line, raw === asset.name ? '' : raw));
  entry.root = true;
}

function certificateExtension(file: string | null): string | undefined {
  const match = /\.([A-Za-z0-9]{1,8})$/.exec(file ?? '');
  return match ? match[1]!.toLowerCase() : undefined;
}

/** The certificate's public key: its own component, pointing at the key's algorithm. */
function addCertificateKey(draft: Draft, certificateRef: string, cert: CbomCertificateInput) {
  const asset = publicKeyAsset({
    algorithm: cert.keyAlgorithm,
    keySize: cert.keySize,
    curve: cert.curve,
    parameterSet: cert.keyParameterSet,
    use: 'other',
  });
  const algorithmRef = algorithmEntry(draft, asset).ref;
  const ref = `${certificateRef}/public-key`;
  const size = cert.keySize;
  const entry = entryFor(draft, ref, 'plain', () => ({
    type: 'cryptographic-asset',
    'bom-ref': ref,
    name: `${asset.name} public key`,
    cryptoProperties: {
      assetType: 'related-crypto-material',
      relatedCryptoMaterialProperties: {
        type: 'public-key',
        algorithmRef,
        ...(size !== null && Number.isInteger(size) && size > 0 ? { size } : {}),
      },
    },
  }));
  entry.dependsOn.add(algorithmRef);
  return ref;
}

function certificateComponent(
  draft: Draft,
  ref: string,
  cert: CbomCertificateInput,
  fingerprint: string | undefined,
): CbomComponent {
  const signatureAlgorithmRef = algorithmEntry(draft, signatureAsset(cert.signatureAlgorithm)).ref;
  const subjectPublicKeyRef = addCertificateKey(draft, ref, cert);
  const extension = cert.provenance === 'repository-file' ? certificateExtension(cert.file) : '';
  const serial = boundedName(cert.serialNumber);
  return {
    type: 'cryptographic-asset',
    'bom-ref': ref,
    name:
      text(cert.subject.trim()) || `certificate ${fingerprint ?? boundedName(cert.certificateId)}`,
    ...(fingerprint ? { hashes: [{ alg: 'SHA-256', content: fingerprint }] } : {}),
    cryptoProperties: {
      assetType: 'certificate',
      certificateProperties: {
        subjectName: text(cert.subject),
        issuerName: text(cert.issuer),
        ...(validDate(cert.notBefore) ? { notValidBefore: isoSeconds(cert.notBefore) } : {}),
        ...(validDate(cert.notAfter) ? { notValidAfter: isoSeconds(cert.notAfter) } : {}),
        signatureAlgorithmRef,
        subjectPublicKeyRef,
        certificateFormat: 'X.509',
        ...(extension ? { certificateExtension: extension } : {}),
      },
    },
    ...(serial
      ? { properties: [{ name: 'driftwatch:certificate:serialNumber', value: serial }] }
      : {}),
  };
}

/** One component per certificate (by fingerprint): every file and endpoint it was seen at. */
function addCertificate(draft: Draft, cert: CbomCertificateInput): void {
  const raw = cert.fingerprintSha256.trim().toLowerCase();
  const fingerprint = /^[0-9a-f]{64}$/.test(raw) ? raw : undefined;
  const ref = fingerprint
    ? `crypto/certificate/sha256:${fingerprint}`
    : `crypto/certificate/id:${boundedName(cert.certificateId)}`;
  const entry = entryFor(draft, ref, 'plain', () =>
    certificateComponent(draft, ref, cert, fingerprint),
  );
  const signature = entry.component.cryptoProperties;
  if (signature?.assetType === 'certificate') {
    entry.dependsOn.add(signature.certificateProperties.signatureAlgorithmRef);
    entry.dependsOn.add(signature.certificateProperties.subjectPublicKeyRef);
  }
  const endpoint = boundedName(cert.endpoint);
  if (cert.provenance === 'tls-observation' && endpoint) {
    addOccurrence(entry, occurrence(endpoint, null, `presented by TLS endpoint ${endpoint}`));
    const seen = draft.certificatesByEndpoint.get(endpoint) ?? new Set<string>();
    draft.certificatesByEndpoint.set(endpoint, seen.add(ref));
  } else {
    addOccurrence(entry, occurrence(cert.file, cert.line, 'X.509 certificate'));
  }
  entry.root = true;
}

function protocolVersion(version: string): string {
  return /^TLS\s*v?(\d(?:\.\d)?)$/i.exec(version)?.[1] ?? version;
}

/** One component per endpoint and version; its cipher suites name their algorithms by bom-ref. */
function addProtocol(draft: Draft, protocol: CbomProtocolInput): void {
  const endpoint = boundedName(protocol.endpoint) || 'unknown endpoint';
  const version = boundedName(protocol.version);
  const ref = `crypto/protocol/tls/${endpoint}${version ? `/${version}` : ''}`;
  const entry = entryFor(draft, ref, 'protocol', () => ({
    type: 'cryptographic-asset',
    'bom-ref': ref,
    name: version || 'TLS',
  }));
  if (protocol.cipherSuite || protocol.group) {
    const suite = describeCipherSuite(protocol.cipherSuite, protocol.group);
    const algorithms = sorted(suite.assets.map((asset) => algorithmEntry(draft, asset).ref));
    const described: CbomCipherSuite = {
      ...(suite.name ? { name: suite.name } : {}),
      algorithms,
      ...(suite.identifiers.length > 0 ? { identifiers: suite.identifiers } : {}),
    };
    entry.suites.set(JSON.stringify(described), described);
    for (const algorithm of algorithms) entry.dependsOn.add(algorithm);
  }
  for (const certificate of draft.certificatesByEndpoint.get(endpoint) ?? []) {
    entry.cryptoRefs.add(certificate);
    entry.dependsOn.add(certificate);
  }
  const seen = [version, protocol.cipherSuite, protocol.group && `group ${protocol.group}`];
  addOccurrence(
    entry,
    occurrence(endpoint, null, `TLS observation: ${seen.filter(Boolean).join(', ')}`),
  );
  entry.root = true;
}

function algorithmComponent(entry: Entry, asset: AlgorithmAsset): CbomComponent {
  const { name, oid, ...properties } = asset;
  const functions = [...entry.functions].sort(compare);
  return {
    ...entry.component,
    name,
    cryptoProperties: {
      assetType: 'algorithm',
      algorithmProperties: {
        ...properties,
        ...(functions.length > 0 ? { cryptoFunctions: functions } : {}),
      },
      ...(oid ? { oid } : {}),
    },
  };
}

function protocolComponent(entry: Entry): CbomComponent {
  const version = entry.component.name === 'TLS' ? '' : protocolVersion(entry.component.name);
  const suites = [...entry.suites.entries()].sort(([a], [b]) => compare(a, b)).map(([, s]) => s);
  return {
    ...entry.component,
    cryptoProperties: {
      assetType: 'protocol',
      protocolProperties: {
        type: 'tls',
        ...(version ? { version } : {}),
        cipherSuites: suites,
        ...(entry.cryptoRefs.size > 0 ? { cryptoRefArray: sorted(entry.cryptoRefs) } : {}),
      },
    },
  };
}

function componentOf(entry: Entry): CbomComponent {
  const base =
    entry.kind === 'algorithm' && entry.asset
      ? algorithmComponent(entry, entry.asset)
      : entry.kind === 'protocol'
        ? protocolComponent(entry)
        : entry.component;
  const occurrences = [...entry.occurrences.entries()]
    .sort(([a], [b]) => compare(a, b))
    .slice(0, MAX_OCCURRENCES)
    .map(([, found]) => found);
  return occurrences.length > 0 ? { ...base, evidence: { occurrences } } : base;
}

function dependencyOf(entry: Entry): CbomDependency {
  return {
    ref: entry.ref,
    dependsOn: sorted(entry.dependsOn),
    ...(entry.provides.size > 0 ? { provides: sorted(entry.provides) } : {}),
  };
}

function repositoryComponent(repository: CbomInput['repository'], rootRef: string): CbomComponent {
  const properties = [
    ...(repository.commitSha
      ? [{ name: 'driftwatch:commitSha', value: repository.commitSha }]
      : []),
    ...(repository.scanId ? [{ name: 'driftwatch:scanId', value: repository.scanId }] : []),
  ];
  return {
    type: 'application',
    'bom-ref': rootRef,
    name: repository.name || repository.id,
    ...(properties.length > 0 ? { properties } : {}),
  };
}
