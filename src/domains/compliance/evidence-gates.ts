import type { AssessedItem } from '../cra/annex-i/assessments';
import {
  type EvidenceContext,
  type ItemDraft,
  inPeriod,
  iso,
  type RecordRef,
  repositoryName,
} from './evidence-model';
import type {
  AuditRecord,
  EvaluationRecord,
  PolicyRecord,
  ScanRecord,
  ViolationRecord,
} from './store';

/**
 * Whether the CI gate would have blocked at an evaluation (docs/compliance.md#policy-gates): a
 * violation with action block of the repository, detected by then, not resolved by then, and not
 * dismissed or excepted by then.
 */
function blockingAt(
  repositoryId: string,
  at: Date,
  violations: ViolationRecord[],
): ViolationRecord[] {
  return violations.filter(
    (v) =>
      v.repositoryId === repositoryId &&
      v.action === 'block' &&
      v.detectedAt <= at &&
      (v.resolvedAt === null || v.resolvedAt > at) &&
      !(
        (v.status === 'dismissed' || v.status === 'excepted') &&
        v.statusChangedAt !== null &&
        v.statusChangedAt <= at
      ),
  );
}

/** Policy evaluations, blocks and gate results of the period's completed scans. */
export function policyGatesEvidence(
  context: EvidenceContext,
  input: {
    policies: PolicyRecord[];
    scans: ScanRecord[];
    evaluations: EvaluationRecord[];
    violations: ViolationRecord[];
  },
): ItemDraft {
  const completed = input.scans.filter(
    (s) => s.state === 'completed' && inPeriod(s.finishedAt, context.period),
  );
  const evaluated = new Map(input.evaluations.map((e) => [e.scanId, e]));
  const gaps: string[] = [];
  const records: RecordRef[] = input.policies.map((p) => ({
    type: 'policy',
    id: p.id,
    path: `/api/v1/policies/${p.id}`,
    note: `enabled policy "${p.name}", action ${p.action}`,
  }));
  let blocked = 0;
  for (const scan of completed) {
    const evaluation = evaluated.get(scan.id);
    const repository = repositoryName(context, scan.repositoryId);
    if (!evaluation) {
      gaps.push(`completed scan ${scan.id} of repository ${repository} has no policy evaluation`);
      continue;
    }
    const blocking = blockingAt(scan.repositoryId, evaluation.loggedAt, input.violations);
    if (blocking.length > 0) blocked += 1;
    records.push({
      type: 'policy_evaluation',
      id: scan.id,
      path: `/api/v1/scans/${scan.id}/logs`,
      note: `${iso(evaluation.loggedAt)} ${repository}: gate ${blocking.length > 0 ? `blocked by ${blocking.length} violations` : 'passed'}; ${evaluation.message}`,
    });
  }
  const detected = input.violations.filter((v) => inPeriod(v.detectedAt, context.period));
  const byAction: Record<string, number> = { inform: 0, warn: 0, block: 0 };
  for (const v of detected) {
    byAction[v.action] = (byAction[v.action] ?? 0) + 1;
    if (v.action === 'block') {
      records.push({
        type: 'policy_violation',
        id: v.id,
        path: `/api/v1/policy-violations/${v.id}`,
        note: `blocking violation of policy ${v.policyId} in repository ${repositoryName(context, v.repositoryId)}, detected ${iso(v.detectedAt)}, now ${v.status}`,
      });
    }
  }
  const blockingPolicies = input.policies.filter((p) => p.action === 'block').length;
  if (blockingPolicies === 0)
    gaps.push('no enabled policy has the action block, so the CI gate cannot fail a change');
  const evaluations = completed.length - gaps.filter((g) => g.startsWith('completed scan')).length;
  return {
    kind: 'policy_gates',
    title: 'Policy evaluations, blocks and gate results',
    source: 'policies, scan_logs (step policies), policy_violations',
    status: completed.length === 0 ? 'no_evidence' : gaps.length === 0 ? 'passing' : 'failing',
    summary: `${input.policies.length} enabled policies (${blockingPolicies} blocking); ${evaluations} of ${completed.length} completed scans evaluated; gate passed ${evaluations - blocked}, blocked ${blocked}; ${byAction.block ?? 0} blocking violations detected`,
    figures: {
      enabledPolicies: input.policies.length,
      blockingPolicies,
      completedScans: completed.length,
      evaluations,
      gatesPassed: evaluations - blocked,
      gatesBlocked: blocked,
      violationsDetected: detected.length,
      violationsDetectedByAction: byAction,
    },
    gaps: completed.length === 0 ? ['no completed scan in the period to evaluate', ...gaps] : gaps,
    records,
  };
}

/** Audit-log entries of the control's actions in the period: counts and the latest excerpts. */
export function auditEvidence(
  context: EvidenceContext,
  actions: string[],
  excerpt: { total: number; byAction: Record<string, number>; latest: AuditRecord[] },
): ItemDraft {
  const from = iso(context.period.start);
  const to = iso(context.period.end);
  return {
    kind: 'audit_log',
    title: 'Audit-log excerpts',
    source: 'audit_log',
    status: 'informational',
    summary: `${excerpt.total} audit-log entries of ${actions.join(', ')} in the period; the latest ${excerpt.latest.length} excerpted`,
    figures: { entries: excerpt.total, byAction: excerpt.byAction, actions },
    gaps: excerpt.total === 0 ? [`no audit-log entry of ${actions.join(', ')} in the period`] : [],
    records: excerpt.latest.map((a) => ({
      type: 'audit_entry',
      id: a.id,
      path: `/api/v1/audit-log?action=${encodeURIComponent(a.action)}&fromUtc=${encodeURIComponent(from)}&toUtc=${encodeURIComponent(to)}`,
      note: `${iso(a.occurredAt)} ${a.action} ${a.resourceType}${a.resourceId ? ` ${a.resourceId}` : ''} by ${a.actorTokenId ?? 'the system'}: ${a.outcome} (${a.statusCode})`,
    })),
  };
}

/** The CRA module's status of one Annex I item for each product (as of collection). */
export function craItemEvidence(itemId: string, items: AssessedItem[]): ItemDraft {
  const mine = items.filter((i) => i.id === itemId);
  const counts: Record<string, number> = { met: 0, partly_met: 0, not_met: 0, not_assessed: 0 };
  const gaps: string[] = [];
  for (const i of mine) {
    counts[i.status] = (counts[i.status] ?? 0) + 1;
    if (i.status === 'not_assessed')
      gaps.push(
        `${itemId} of product ${i.productId} is not assessed (${i.evidence.join('; ') || 'nobody recorded an assessment'})`,
      );
    if (i.status === 'not_met' || i.status === 'partly_met')
      gaps.push(
        `${itemId} of product ${i.productId} is ${i.status}: ${i.evidence.join('; ') || i.note || 'no detail recorded'}`,
      );
  }
  const failing = (counts.not_met ?? 0) + (counts.partly_met ?? 0) > 0;
  const status =
    mine.length === 0
      ? 'no_evidence'
      : failing
        ? 'failing'
        : counts.not_assessed
          ? 'no_evidence'
          : 'passing';
  return {
    kind: 'cra_annex_i',
    title: `CRA Annex I item ${itemId} per product`,
    source: "cra_products, cra_assessments and the CRA module's computed rules",
    status,
    summary:
      mine.length === 0
        ? 'no CRA product recorded'
        : `${mine.length} products: ${counts.met} met, ${counts.partly_met} partly met, ${counts.not_met} not met, ${counts.not_assessed} not assessed (status as of collection)`,
    figures: { products: mine.length, ...counts },
    gaps: mine.length === 0 ? ['no CRA product recorded, so no product can show this item'] : gaps,
    records: mine.map((i) => ({
      type: 'cra_annex_i_item',
      id: i.productId,
      path: `/api/v1/cra/annex-i?productId=${i.productId}`,
      note: `${i.status} (${i.basis})${i.evidence.length ? `: ${i.evidence.join('; ')}` : ''}${i.note ? `; note: ${i.note}` : ''}${i.assessedByTokenId ? `; assessed by token ${i.assessedByTokenId} at ${i.assessedAtUtc}` : ''}`,
    })),
  };
}
