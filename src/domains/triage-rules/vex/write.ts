import { createHash } from 'node:crypto';
import { PackageURL } from 'packageurl-js';
import { compositeKey } from '../../../core/composite-key';
import { getEcosystem } from '../../../ecosystems/ecosystem-list';
import { buildPurl } from '../../../ecosystems/purl';
import type { Ecosystem } from '../../../ecosystems/types';
import { parseVers } from '../../../ecosystems/vers';
import { deterministicUuid, isoSeconds } from '../../../sbom/export-model';
import type { VexJustification } from '../../exposures/state-machine';
import type { RuleStatus } from '../tables';
import type { OpenVexJustification } from './documents';

/** The property the CycloneDX export gives an accepted risk's end (docs/triage.md#vex). */
export const ACCEPTANCE_END_PROPERTY = 'driftwatch:acceptedRiskExpiresAtUtc';

/**
 * OpenVEX 0.2.0 and CycloneDX 1.6 documents of a tenant's decisions (docs/triage.md#vex). Pure
 * and deterministic: the same decisions give the same statements in the same order (only the
 * document's timestamp is the time of the export).
 */
export type StatementStatus = RuleStatus | 'affected' | 'under_investigation';

export interface DecisionProduct {
  ecosystem: string;
  packageName: string;
  /** A vers range; an exact one (`vers:npm/1.2.3`) is written as the purl's version. */
  versionRange: string | null;
  /** The repository it is limited to (its clone URL); null: every repository. */
  repositoryUrl: string | null;
}

/** One decision: a rule, or the status a person gave an exposure. */
export interface Decision {
  vulnerability: string;
  status: StatementStatus;
  justification: string | null;
  reason: string | null;
  /** The end of an accepted risk (null for other statuses). */
  expiresAt: Date | null;
  decidedAt: Date;
  products: DecisionProduct[];
}

export interface ExportContext {
  author: string;
  toolName: string;
  toolVersion: string;
  issuedAt: Date;
  /** Seeds the document id with the tenant (and the repository of a filtered export). */
  scope: string;
}

/**
 * OpenVEX justifications in the CycloneDX vocabulary the service keeps. `component_not_present`
 * means the match itself is wrong: a `false_positive` rule. Each maps back to the same OpenVEX
 * value on export (`OPENVEX_JUSTIFICATION_OF`).
 */
export const JUSTIFICATION_FROM_OPENVEX: Record<
  Exclude<OpenVexJustification, 'component_not_present'>,
  VexJustification
> = {
  vulnerable_code_not_present: 'code_not_present',
  vulnerable_code_not_in_execute_path: 'code_not_reachable',
  vulnerable_code_cannot_be_controlled_by_adversary: 'requires_environment',
  inline_mitigations_already_exist: 'protected_by_mitigating_control',
};

/** CycloneDX justifications in the five OpenVEX ones. */
export const OPENVEX_JUSTIFICATION_OF: Record<VexJustification, OpenVexJustification> = {
  code_not_present: 'vulnerable_code_not_present',
  code_not_reachable: 'vulnerable_code_not_in_execute_path',
  requires_configuration: 'vulnerable_code_cannot_be_controlled_by_adversary',
  requires_dependency: 'vulnerable_code_cannot_be_controlled_by_adversary',
  requires_environment: 'vulnerable_code_cannot_be_controlled_by_adversary',
  protected_by_compiler: 'inline_mitigations_already_exist',
  protected_at_runtime: 'inline_mitigations_already_exist',
  protected_at_perimeter: 'inline_mitigations_already_exist',
  protected_by_mitigating_control: 'inline_mitigations_already_exist',
};

interface Statement extends Omit<Decision, 'products'> {
  products: DecisionProduct[];
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const productKey = (p: DecisionProduct) =>
  compositeKey(p.repositoryUrl, p.ecosystem, p.packageName, p.versionRange);

/**
 * Decisions with the same vulnerability, status, justification and reason become one statement
 * naming all their products; statements and products are sorted, products deduplicated.
 */
export function statementsOf(decisions: Decision[]): Statement[] {
  const grouped = new Map<string, Statement>();
  for (const decision of decisions) {
    const key = compositeKey(
      decision.vulnerability.toUpperCase(),
      decision.status,
      decision.justification,
      decision.reason,
      decision.expiresAt?.toISOString(),
    );
    const known = grouped.get(key);
    if (!known) {
      grouped.set(key, { ...decision, products: [...decision.products] });
      continue;
    }
    known.products.push(...decision.products);
    if (decision.decidedAt > known.decidedAt) known.decidedAt = decision.decidedAt;
  }
  const statements = [...grouped.entries()]
    .sort(([a], [b]) => compare(a, b))
    .map(([, statement]) => statement);
  for (const statement of statements) {
    const unique = new Map(statement.products.map((p) => [productKey(p), p]));
    statement.products = [...unique.entries()]
      .sort(([a], [b]) => compare(a, b))
      .map(([, product]) => product);
  }
  return statements;
}

/** The single version of an exact range (`vers:npm/1.2.3`), else null. */
function exactVersionOf(range: string | null): string | null {
  if (!range) return null;
  const parsed = parseVers(range);
  if (!parsed.ok || parsed.value.constraints?.length !== 1) return null;
  const [only] = parsed.value.constraints;
  return only?.comparator === '=' ? only.version : null;
}

function purlTypeOf(ecosystem: string): string {
  return getEcosystem(ecosystem as Ecosystem).purlType;
}

/** The package's purl: with its version when exact, with a `vers` qualifier for a range. */
export function productPurl(product: DecisionProduct): string {
  const type = purlTypeOf(product.ecosystem);
  const exact = exactVersionOf(product.versionRange);
  if (exact !== null || !product.versionRange) {
    return buildPurl(type, product.packageName, exact);
  }
  return buildPurl(type, product.packageName, null, { vers: product.versionRange });
}

/**
 * A not_affected statement: OpenVEX's five justifications say less than the nine kept, so the
 * precise one leads `status_notes` where it differs (`requires_configuration: <reason>`); the
 * import reads it back, and other readers see a sentence.
 */
function openVexNotAffected(statement: Statement): Record<string, unknown> {
  const kept = (statement.justification ?? 'code_not_present') as VexJustification;
  const openVex = OPENVEX_JUSTIFICATION_OF[kept] ?? 'vulnerable_code_not_present';
  const mapsBack =
    openVex === 'component_not_present' || JUSTIFICATION_FROM_OPENVEX[openVex] === kept;
  const precise = mapsBack ? null : kept;
  const notes = [precise, statement.reason].filter(Boolean).join(': ');
  return {
    status: 'not_affected',
    justification: openVex,
    ...(notes ? { status_notes: notes } : {}),
  };
}

function openVexStatus(statement: Statement): Record<string, unknown> {
  const notes = statement.reason ? { status_notes: statement.reason } : {};
  switch (statement.status) {
    case 'not_affected':
      return openVexNotAffected(statement);
    case 'false_positive':
      return { status: 'not_affected', justification: 'component_not_present', ...notes };
    case 'accepted_risk': {
      const until = statement.expiresAt ? ` until ${isoSeconds(statement.expiresAt)}` : '';
      return {
        status: 'affected',
        action_statement: `will_not_fix${until}: ${statement.reason ?? 'risk accepted'}`,
      };
    }
    case 'affected':
      return { status: 'affected', action_statement: statement.reason ?? 'No action decided yet.' };
    default:
      return { status: 'under_investigation', ...notes };
  }
}

/** Packages everywhere are products; a repository's are subcomponents of it. */
function openVexProducts(products: DecisionProduct[]): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  // By address then purl: a project added twice has one address, and the schema wants each
  // subcomponent once.
  const byRepository = new Map<string, Set<string>>();
  for (const product of products) {
    const purl = productPurl(product);
    if (!product.repositoryUrl) {
      out.push({ '@id': purl });
      continue;
    }
    const parts = byRepository.get(product.repositoryUrl) ?? new Set<string>();
    parts.add(purl);
    byRepository.set(product.repositoryUrl, parts);
  }
  for (const [url, parts] of byRepository) {
    out.push({ '@id': url, subcomponents: [...parts].map((purl) => ({ '@id': purl })) });
  }
  return out;
}

function documentId(context: ExportContext, kind: string, body: unknown): string {
  const digest = createHash('sha256').update(JSON.stringify(body)).digest('hex');
  return deterministicUuid(`vex:${kind}:${context.scope}:${digest}`);
}

export function writeOpenVex(
  decisions: Decision[],
  context: ExportContext,
): Record<string, unknown> {
  const statements = statementsOf(decisions).map((statement) => ({
    vulnerability: { name: statement.vulnerability },
    timestamp: isoSeconds(statement.decidedAt),
    products: openVexProducts(statement.products),
    ...openVexStatus(statement),
  }));
  return {
    '@context': 'https://openvex.dev/ns/v0.2.0',
    '@id': `urn:uuid:${documentId(context, 'openvex', statements)}`,
    author: context.author,
    role: 'Document Creator',
    timestamp: isoSeconds(context.issuedAt),
    version: 1,
    tooling: `${context.toolName} ${context.toolVersion}`,
    statements,
  };
}

const CYCLONEDX_STATE: Record<StatementStatus, string> = {
  not_affected: 'not_affected',
  false_positive: 'false_positive',
  accepted_risk: 'exploitable',
  affected: 'exploitable',
  under_investigation: 'in_triage',
};
const VERSION_STATUS: Record<StatementStatus, string> = {
  not_affected: 'unaffected',
  false_positive: 'unaffected',
  accepted_risk: 'affected',
  affected: 'affected',
  under_investigation: 'unknown',
};

function libraryComponent(purl: string, bomRef: string): Record<string, unknown> {
  const parsed = PackageURL.fromString(purl);
  return {
    type: 'library',
    'bom-ref': bomRef,
    ...(parsed.namespace ? { group: parsed.namespace } : {}),
    name: parsed.name,
    purl,
  };
}

/** The component a product's package is: one per package, nested in its repository's if any. */
function componentRefOf(product: DecisionProduct): string {
  const purl = productPurl({ ...product, versionRange: null });
  return product.repositoryUrl ? `${product.repositoryUrl}#${purl}` : purl;
}

function cycloneDxComponents(statements: Statement[]): Record<string, unknown>[] {
  const packages = new Map<string, Record<string, unknown>>();
  const repositories = new Map<string, Map<string, Record<string, unknown>>>();
  for (const product of statements.flatMap((statement) => statement.products)) {
    const purl = productPurl({ ...product, versionRange: null });
    const ref = componentRefOf(product);
    if (!product.repositoryUrl) {
      packages.set(ref, libraryComponent(purl, ref));
      continue;
    }
    const parts = repositories.get(product.repositoryUrl) ?? new Map();
    parts.set(ref, libraryComponent(purl, ref));
    repositories.set(product.repositoryUrl, parts);
  }
  const sorted = <T>(map: Map<string, T>) =>
    [...map.entries()].sort(([a], [b]) => compare(a, b)).map(([, value]) => value);
  const repositoryComponents = [...repositories.entries()]
    .sort(([a], [b]) => compare(a, b))
    .map(([url, parts]) => ({
      type: 'application',
      'bom-ref': `repository:${url}`,
      name:
        url
          .replace(/\.git$/, '')
          .split(/[/:]/)
          .pop() || url,
      externalReferences: [{ type: 'vcs', url }],
      components: sorted(parts),
    }));
  return [...sorted(packages), ...repositoryComponents];
}

function affectsOf(statement: Statement): Record<string, unknown>[] {
  const everyVersion = new Set<string>();
  const versions = new Map<string, Record<string, string>[]>();
  for (const product of statement.products) {
    const ref = componentRefOf(product);
    if (!product.versionRange) {
      everyVersion.add(ref);
      continue;
    }
    const exact = exactVersionOf(product.versionRange);
    const entry: Record<string, string> =
      exact !== null ? { version: exact } : { range: product.versionRange };
    const list = versions.get(ref) ?? [];
    list.push({ ...entry, status: VERSION_STATUS[statement.status] });
    versions.set(ref, list);
  }
  const refs = [...new Set([...everyVersion, ...versions.keys()])].sort(compare);
  return refs.flatMap((ref) => [
    ...(everyVersion.has(ref) ? [{ ref }] : []),
    ...(versions.has(ref) ? [{ ref, versions: versions.get(ref) }] : []),
  ]);
}

function analysisOf(statement: Statement): Record<string, unknown> {
  return {
    state: CYCLONEDX_STATE[statement.status],
    ...(statement.status === 'not_affected' && statement.justification
      ? { justification: statement.justification }
      : {}),
    ...(statement.status === 'accepted_risk' ? { response: ['will_not_fix'] } : {}),
    ...(statement.reason ? { detail: statement.reason } : {}),
    lastUpdated: isoSeconds(statement.decidedAt),
  };
}

export function writeCycloneDxVex(
  decisions: Decision[],
  context: ExportContext,
): Record<string, unknown> {
  const statements = statementsOf(decisions);
  const components = cycloneDxComponents(statements);
  const vulnerabilities = statements.map((statement) => ({
    id: statement.vulnerability,
    analysis: analysisOf(statement),
    affects: affectsOf(statement),
    // CycloneDX has no field for the end of an acceptance: a property carries it.
    ...(statement.status === 'accepted_risk' && statement.expiresAt
      ? {
          properties: [{ name: ACCEPTANCE_END_PROPERTY, value: isoSeconds(statement.expiresAt) }],
        }
      : {}),
  }));
  return {
    $schema: 'http://cyclonedx.org/schema/bom-1.6.schema.json',
    bomFormat: 'CycloneDX',
    specVersion: '1.6',
    serialNumber: `urn:uuid:${documentId(context, 'cyclonedx', { components, vulnerabilities })}`,
    version: 1,
    metadata: {
      timestamp: isoSeconds(context.issuedAt),
      tools: {
        components: [{ type: 'application', name: context.toolName, version: context.toolVersion }],
      },
      authors: [{ name: context.author }],
    },
    components,
    vulnerabilities,
  };
}
