import { PackageURL } from 'packageurl-js';
import type { VexJustification } from '../../exposures/state-machine';
import { ADVISORY_IDENTIFIER } from '../service';
import type { RuleStatus } from '../tables';
import type {
  CycloneDxVexDocument,
  CycloneDxVulnerability,
  OpenVexDocument,
  OpenVexJustification,
  OpenVexStatement,
  VexDocument,
} from './documents';
import {
  ACCEPTANCE_END_PROPERTY,
  JUSTIFICATION_FROM_OPENVEX,
  OPENVEX_JUSTIFICATION_OF,
} from './write';

/**
 * VEX statements read into what a triage rule needs (docs/triage.md#vex). Pure: the document is
 * already checked against its schema. A statement whose status maps to no rule, or a product
 * that names no package, is kept with the reason it will be skipped, never dropped.
 */
export interface ReadProduct {
  /** The package URL as given, without a `vers` qualifier; null when the product has none. */
  purl: string | null;
  /** An exact version given beside the purl (CycloneDX `affects[].versions[].version`). */
  version: string | null;
  /** A vers range: the `vers` qualifier of an OpenVEX purl, or a CycloneDX `range`. */
  versionRange: string | null;
  /** The repository the package is part of (an OpenVEX product with subcomponents, a
   * CycloneDX component nested in one with a vcs reference), by its address. */
  repositoryUrl: string | null;
  /** What the document calls it, for the outcome of a product that cannot be read. */
  label: string;
  skipReason: string | null;
}

export interface RuleDecision {
  status: RuleStatus;
  justification: VexJustification | null;
  reason: string | null;
  /** The end of an acceptance the statement gives (the export writes it; docs/triage.md). */
  expiresAt: Date | null;
}

export interface ReadStatement {
  /** Position in `statements` (OpenVEX) or `vulnerabilities` (CycloneDX). */
  index: number;
  vulnerability: string | null;
  /** The status as the document says it (`not_affected`, `exploitable`, ...). */
  documentStatus: string | null;
  decision: RuleDecision | null;
  skipReason: string | null;
  products: ReadProduct[];
}

/**
 * An `affected` statement whose action statement starts so is an accepted risk, until the date
 * that may follow (`will_not_fix until 2027-03-31T00:00:00Z: vendor patch in Q3`).
 */
const ACCEPTANCE =
  /^\s*(will_not_fix|can_not_fix)\b(?:\s+until\s+(\d{4}-\d\d-\d\d(?:T\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:Z|[+-]\d\d:?\d\d)?)?))?[\s:,.-]*/i;

/** The date of an acceptance, or why it cannot be one. */
export function acceptanceEnd(text: string | undefined): Date | null | string {
  if (!text) return null;
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? `the acceptance end ${text} is not a date` : date;
}

/**
 * The export's `status_notes` of a not_affected statement starts with the precise CycloneDX
 * justification when OpenVEX's five say less (`requires_configuration: needs the legacy flag`);
 * read back only where it refines the statement's own justification.
 */
function refinedJustification(
  justification: Exclude<OpenVexJustification, 'component_not_present'>,
  notes: string | undefined,
): { justification: VexJustification; notes: string | null } {
  const match = /^([a-z_]+)(?::\s*|$)/.exec(notes ?? '');
  const named = match?.[1] as VexJustification | undefined;
  if (named && named !== JUSTIFICATION_FROM_OPENVEX[justification]) {
    if (OPENVEX_JUSTIFICATION_OF[named] === justification) {
      const rest = (notes ?? '').slice(match?.[0].length ?? 0).trim();
      return { justification: named, notes: rest || null };
    }
  }
  return { justification: JUSTIFICATION_FROM_OPENVEX[justification], notes: notes ?? null };
}

const SKIP_STATUS: Record<string, string> = {
  fixed: 'fixed: the service learns fixes from scans, not from statements',
  resolved: 'resolved: the service learns fixes from scans, not from statements',
  resolved_with_pedigree: 'resolved: the service learns fixes from scans, not from statements',
  under_investigation: 'under_investigation: nothing to carry until it is decided',
  in_triage: 'in_triage: nothing to carry until it is decided',
};

/** The first advisory identifier among the names a document gives a vulnerability. */
function identifierOf(candidates: (string | undefined)[]): string | null {
  for (const candidate of candidates) {
    const text = candidate?.trim();
    if (!text) continue;
    if (ADVISORY_IDENTIFIER.test(text)) return text;
    // An address such as https://nvd.nist.gov/vuln/detail/CVE-2024-1234 ends in one.
    const tail = text
      .replace(/[/#?]+$/, '')
      .split(/[/#=]/)
      .pop();
    if (tail && ADVISORY_IDENTIFIER.test(tail)) return tail;
  }
  return null;
}

/** Takes a `vers` qualifier out of a purl (the export writes ranges so; docs/triage.md). */
function splitVers(purl: string): { purl: string; versionRange: string | null } {
  if (!/[?&]vers=/.test(purl)) return { purl, versionRange: null };
  try {
    const parsed = PackageURL.fromString(purl);
    const { vers, ...rest } = parsed.qualifiers ?? {};
    const kept = Object.keys(rest).length > 0 ? rest : undefined;
    const rebuilt = new PackageURL(
      parsed.type,
      parsed.namespace,
      parsed.name,
      parsed.version,
      kept,
      parsed.subpath,
    );
    return { purl: rebuilt.toString(), versionRange: vers ?? null };
  } catch {
    return { purl, versionRange: null };
  }
}

function purlProduct(text: string | undefined, repositoryUrl: string | null): ReadProduct {
  const label = text ?? '(no identifier)';
  if (!text?.startsWith('pkg:')) {
    return {
      purl: null,
      version: null,
      versionRange: null,
      repositoryUrl,
      label,
      skipReason: 'names no package URL (pkg:...)',
    };
  }
  return { ...splitVers(text), version: null, repositoryUrl, label, skipReason: null };
}

function openVexProducts(statement: OpenVexStatement): ReadProduct[] {
  const products: ReadProduct[] = [];
  for (const product of statement.products ?? []) {
    const own = product.identifiers?.purl ?? product['@id'];
    const parts = product.subcomponents ?? [];
    if (parts.length === 0) {
      products.push(purlProduct(own, null));
      continue;
    }
    // A product with subcomponents: the packages are the subcomponents, in that product.
    const repositoryUrl = product['@id'] ?? own ?? null;
    for (const part of parts)
      products.push(purlProduct(part.identifiers?.purl ?? part['@id'], repositoryUrl));
  }
  return products;
}

function openVexDecision(statement: OpenVexStatement): RuleDecision | string {
  const reason = statement.impact_statement ?? statement.status_notes ?? null;
  if (statement.status === 'not_affected') {
    const justification = statement.justification;
    if (justification === 'component_not_present') {
      return { status: 'false_positive', justification: null, reason, expiresAt: null };
    }
    if (!justification) {
      return 'not_affected without a justification: a rule needs one of the five OpenVEX justifications';
    }
    const refined = refinedJustification(justification, statement.status_notes);
    return {
      status: 'not_affected',
      justification: refined.justification,
      reason: statement.impact_statement ?? refined.notes,
      expiresAt: null,
    };
  }
  if (statement.status === 'affected') return openVexAcceptance(statement.action_statement ?? '');
  return SKIP_STATUS[statement.status] ?? `${statement.status}: maps to no rule`;
}

function openVexAcceptance(action: string): RuleDecision | string {
  const accepted = ACCEPTANCE.exec(action);
  if (!accepted) {
    return 'affected without an acceptance (an action_statement starting will_not_fix or can_not_fix)';
  }
  const expiresAt = acceptanceEnd(accepted[2]);
  if (typeof expiresAt === 'string') return expiresAt;
  const rest = action.slice(accepted[0].length).trim();
  return {
    status: 'accepted_risk',
    justification: null,
    reason: rest || (accepted[1] as string),
    expiresAt,
  };
}

export function readOpenVex(document: OpenVexDocument): ReadStatement[] {
  return document.statements.map((statement, index) => {
    const vulnerability = identifierOf([
      statement.vulnerability.name,
      ...(statement.vulnerability.aliases ?? []),
      statement.vulnerability['@id'],
    ]);
    const decision = openVexDecision(statement);
    return finish({
      index,
      vulnerability,
      documentStatus: statement.status,
      decision: typeof decision === 'string' ? null : decision,
      skipReason: typeof decision === 'string' ? decision : null,
      products: openVexProducts(statement),
    });
  });
}

/** The skip reason every statement needs checked last: an identifier and some product. */
function finish(statement: ReadStatement): ReadStatement {
  if (statement.skipReason) return statement;
  if (!statement.vulnerability) {
    return { ...statement, skipReason: 'names no advisory identifier (CVE-..., GHSA-..., ...)' };
  }
  if (statement.products.length === 0) return { ...statement, skipReason: 'names no product' };
  return statement;
}

interface KnownComponent {
  purl: string | undefined;
  label: string;
  repositoryUrl: string | null;
}

const vcsUrlOf = (component: { externalReferences?: { type: string; url: string }[] }) =>
  component.externalReferences?.find((ref) => ref.type === 'vcs')?.url ?? null;

/** `bom-ref` → component, with the repository a nested component is part of. */
function componentsByRef(document: CycloneDxVexDocument): Map<string, KnownComponent> {
  const byRef = new Map<string, KnownComponent>();
  for (const component of document.components ?? []) {
    const label = component['bom-ref'] ?? component.purl ?? component.name ?? '(unnamed)';
    if (component['bom-ref']) {
      byRef.set(component['bom-ref'], { purl: component.purl, label, repositoryUrl: null });
    }
    const repositoryUrl = vcsUrlOf(component);
    for (const part of component.components ?? []) {
      if (!part['bom-ref']) continue;
      byRef.set(part['bom-ref'], {
        purl: part.purl,
        label: part['bom-ref'],
        repositoryUrl: repositoryUrl ?? component['bom-ref'] ?? null,
      });
    }
  }
  return byRef;
}

function cycloneDxProducts(
  vulnerability: CycloneDxVulnerability,
  components: Map<string, KnownComponent>,
): ReadProduct[] {
  const products: ReadProduct[] = [];
  for (const affected of vulnerability.affects ?? []) {
    const known = components.get(affected.ref);
    const base = known
      ? purlProduct(known.purl, known.repositoryUrl)
      : purlProduct(affected.ref.startsWith('pkg:') ? affected.ref : undefined, null);
    base.label = known?.label ?? `ref ${affected.ref}`;
    if (!known && base.skipReason) base.skipReason = 'names no component of the document';
    const versions = affected.versions ?? [];
    if (versions.length === 0 || base.skipReason) {
      products.push(base);
      continue;
    }
    for (const entry of versions) {
      if (entry.range) products.push({ ...base, versionRange: entry.range });
      else if (entry.version) products.push({ ...base, version: entry.version });
      else products.push({ ...base, skipReason: 'a version entry with neither version nor range' });
    }
  }
  return products;
}

function cycloneDxDecision(vulnerability: CycloneDxVulnerability): RuleDecision | string {
  const analysis = vulnerability.analysis;
  const state = analysis?.state;
  const reason = analysis?.detail ?? null;
  if (!analysis || !state) return 'no analysis.state: nothing to carry';
  if (state === 'not_affected') {
    if (!analysis.justification) {
      return 'not_affected without analysis.justification: a rule needs one';
    }
    return {
      status: 'not_affected',
      justification: analysis.justification,
      reason,
      expiresAt: null,
    };
  }
  if (state === 'false_positive') {
    return { status: 'false_positive', justification: null, reason, expiresAt: null };
  }
  if (state === 'exploitable') {
    const accepted = analysis.response?.find((r) => r === 'will_not_fix' || r === 'can_not_fix');
    if (!accepted)
      return 'exploitable without an acceptance (response will_not_fix or can_not_fix)';
    const end = vulnerability.properties?.find((p) => p.name === ACCEPTANCE_END_PROPERTY);
    const expiresAt = acceptanceEnd(end?.value);
    if (typeof expiresAt === 'string') return expiresAt;
    return { status: 'accepted_risk', justification: null, reason: reason ?? accepted, expiresAt };
  }
  return SKIP_STATUS[state] ?? `${state}: maps to no rule`;
}

export function readCycloneDxVex(document: CycloneDxVexDocument): ReadStatement[] {
  const components = componentsByRef(document);
  return document.vulnerabilities.map((vulnerability, index) => {
    const decision = cycloneDxDecision(vulnerability);
    return finish({
      index,
      vulnerability: identifierOf([
        vulnerability.id,
        ...(vulnerability.references ?? []).map((ref) => ref.id),
      ]),
      documentStatus: vulnerability.analysis?.state ?? null,
      decision: typeof decision === 'string' ? null : decision,
      skipReason: typeof decision === 'string' ? decision : null,
      products: cycloneDxProducts(vulnerability, components),
    });
  });
}

export function readVexStatements(vex: VexDocument): ReadStatement[] {
  return vex.format === 'openvex' ? readOpenVex(vex.document) : readCycloneDxVex(vex.document);
}
