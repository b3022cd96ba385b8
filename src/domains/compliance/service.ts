import type { Kysely } from 'kysely';
import { notFound } from '../../core/problem';
import type { DB } from '../../db/schema';
import { type AssessedItem, annexIStatus } from '../cra/annex-i/assessments';
import { CONTROLS, type ControlDefinition, type EvidenceKind, findControl } from './controls';
import { sbomEvidence, scanCoverage } from './evidence-coverage';
import { auditEvidence, craItemEvidence, policyGatesEvidence } from './evidence-gates';
import {
  type EvidenceContext,
  type EvidenceItem,
  finishItem,
  type ItemDraft,
  inPeriod,
} from './evidence-model';
import { exceptionsEvidence, remediationEvidence } from './evidence-remediation';
import type { Period } from './period';
import * as store from './store';
import { readTargets } from './targets';

export type ControlResult = 'compliant' | 'partially_compliant' | 'non_compliant' | 'not_assessed';

export interface ControlEvidence {
  control: Omit<ControlDefinition, 'auditActions' | 'craItemId' | 'evidenceKinds'> & {
    evidenceKinds: EvidenceKind[];
  };
  periodStartUtc: string;
  periodEndUtc: string;
  /** The end the evidence is judged at: the period's end, or now when it has not ended. */
  evaluatedUntilUtc: string;
  generatedAtUtc: string;
  /** Vanta's "passing during this period"; insufficient_evidence when nothing could be tested. */
  testStatus: 'passing' | 'failing' | 'insufficient_evidence';
  /** CISO Assistant's requirement assessment result. */
  result: ControlResult;
  evidence: EvidenceItem[];
  gaps: string[];
}

/** The records gathered once for every control asked about (one request, or one archive). */
interface Gathered {
  context: EvidenceContext;
  build: (kind: Exclude<EvidenceKind, 'audit_log' | 'cra_annex_i'>) => Promise<ItemDraft>;
  craItems: () => Promise<AssessedItem[]>;
}

/** Runs `load` on first use only, then hands out the same answer (a control reads what it needs). */
function once<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () => {
    loaded ??= load();
    return loaded;
  };
}

/** The loaders of the period's records; the queries run in sequence, on the one transaction. */
function loaders(db: Kysely<DB>, period: Period) {
  const scans = once(() => store.scansOfPeriod(db, period));
  const exposures = once(() => store.exposuresOfPeriod(db, period));
  const exceptions = once(() => store.exceptionsOfPeriod(db, period));
  return {
    repositories: once(() => store.activeRepositories(db, period.end)),
    scans,
    exposures,
    exceptions,
    tokens: once(async () => {
      const ids = [
        ...(await exceptions()).flatMap((x) => (x.createdByTokenId ? [x.createdByTokenId] : [])),
        ...(await exposures()).flatMap((e) =>
          e.statusChangedByTokenId ? [e.statusChangedByTokenId] : [],
        ),
      ];
      return store.tokenNames(db, ids);
    }),
    gates: once(async () => {
      const periodScans = await scans();
      return {
        policies: await store.enabledPolicies(db),
        scans: periodScans,
        evaluations: await store.evaluationsOf(
          db,
          periodScans.map((s) => s.id),
        ),
        violations: await store.violationsOfPeriod(db, period),
      };
    }),
    sboms: once(() => store.sbomsOfPeriod(db, period)),
    targets: once(async () => (await readTargets(db)).targets),
    cra: once(() => annexIStatus(db)),
  };
}

const completedIn = (scans: store.ScanRecord[], period: Period) =>
  scans.filter((s) => s.state === 'completed' && inPeriod(s.finishedAt, period)).length;

async function gather(db: Kysely<DB>, period: Period, now: Date): Promise<Gathered> {
  const names = await db.selectFrom('repositories').select(['id', 'full_name']).execute();
  const context: EvidenceContext = {
    period,
    until: new Date(Math.min(period.end.getTime(), now.getTime())),
    collectedAt: now,
    repositoryNames: new Map(names.map((r) => [r.id, r.full_name])),
  };
  const load = loaders(db, period);
  return {
    context,
    build: async (kind) => {
      switch (kind) {
        case 'scan_coverage':
          return scanCoverage(context, await load.repositories(), await load.scans());
        case 'vulnerability_remediation':
          return remediationEvidence(
            context,
            await load.exposures(),
            await load.targets(),
            completedIn(await load.scans(), period),
          );
        case 'exceptions':
          return exceptionsEvidence(
            context,
            await load.exceptions(),
            await load.exposures(),
            await load.tokens(),
          );
        case 'policy_gates':
          return policyGatesEvidence(context, await load.gates());
        case 'sbom':
          return sbomEvidence(context, await load.repositories(), await load.sboms());
      }
    },
    craItems: load.cra,
  };
}

const AUDIT_EXCERPT = 100;

function resultOf(items: EvidenceItem[]): ControlResult {
  const tested = items.filter((i) => i.status !== 'informational' && i.status !== 'no_evidence');
  if (tested.length === 0) return 'not_assessed';
  const passing = tested.filter((i) => i.status === 'passing').length;
  if (passing === tested.length && !items.some((i) => i.status === 'no_evidence'))
    return 'compliant';
  if (passing === 0) return 'non_compliant';
  return 'partially_compliant';
}

async function evidenceOf(
  db: Kysely<DB>,
  control: ControlDefinition,
  gathered: Gathered,
): Promise<ControlEvidence> {
  const { context } = gathered;
  const drafts: ItemDraft[] = [];
  for (const kind of control.evidenceKinds) {
    if (kind === 'audit_log') {
      const excerpt = await store.auditExcerpt(
        db,
        context.period,
        control.auditActions,
        AUDIT_EXCERPT,
      );
      drafts.push(auditEvidence(context, control.auditActions, excerpt));
    } else if (kind === 'cra_annex_i') {
      drafts.push(craItemEvidence(control.craItemId ?? '', await gathered.craItems()));
    } else drafts.push(await gathered.build(kind));
  }
  const evidence = drafts.map((d) => finishItem(d, context));
  const result = resultOf(evidence);
  const { auditActions: _a, craItemId: _c, ...shown } = control;
  return {
    control: shown,
    periodStartUtc: context.period.start.toISOString(),
    periodEndUtc: context.period.end.toISOString(),
    evaluatedUntilUtc: context.until.toISOString(),
    generatedAtUtc: context.collectedAt.toISOString(),
    testStatus:
      result === 'compliant'
        ? 'passing'
        : result === 'not_assessed'
          ? 'insufficient_evidence'
          : 'failing',
    result,
    evidence,
    gaps: evidence.flatMap((i) => i.gaps),
  };
}

/** GET /api/v1/compliance/controls/{controlId}/evidence: 404 for an unknown control. */
export async function controlEvidence(
  db: Kysely<DB>,
  controlId: string,
  period: Period,
  now = new Date(),
): Promise<ControlEvidence> {
  const control = findControl(controlId);
  if (!control) throw notFound('The control');
  return evidenceOf(db, control, await gather(db, period, now));
}

/** Every control's evidence for one period, from one gathering (the archive). */
export async function allControlEvidence(
  db: Kysely<DB>,
  period: Period,
  now = new Date(),
): Promise<ControlEvidence[]> {
  const gathered = await gather(db, period, now);
  const results: ControlEvidence[] = [];
  for (const control of CONTROLS) results.push(await evidenceOf(db, control, gathered));
  return results;
}

export function presentControl(control: ControlDefinition) {
  const { auditActions: _a, craItemId: _c, ...shown } = control;
  return { ...shown, evidencePath: `/api/v1/compliance/controls/${control.controlId}/evidence` };
}
