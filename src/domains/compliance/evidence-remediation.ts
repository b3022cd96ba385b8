import {
  days,
  type EvidenceContext,
  type ItemDraft,
  inPeriod,
  iso,
  median,
  type RecordRef,
  repositoryName,
  share,
} from './evidence-model';
import type { ExceptionRecord, ExposureRecord } from './store';
import { type RemediationTargets, TARGET_SEVERITIES, targetFor } from './targets';

/** A withdrawn advisory closes an exposure, but nobody fixed anything: not a remediation. */
const isRemediation = (e: ExposureRecord) =>
  e.fixedAt !== null && e.fixedReason !== 'advisory_withdrawn';
/** Closed by a person's triage: not counted as open (risk acceptances are their own item). */
const TRIAGED_AWAY = new Set(['not_affected', 'false_positive', 'accepted_risk']);

const exposureRef = (e: ExposureRecord, note: string): RecordRef => ({
  type: 'vulnerability_exposure',
  id: e.id,
  path: `/api/v1/vulnerability-exposures/${e.id}`,
  note,
});

const label = (e: ExposureRecord, context: EvidenceContext) =>
  `${e.vulnerability} in ${e.packageName}@${e.version} (${e.severity ?? 'unrated'}) of repository ${repositoryName(context, e.repositoryId)}`;

/** Open at the end judged: not fixed by then, not triaged away. */
function openAtEnd(e: ExposureRecord, context: EvidenceContext): boolean {
  if (e.firstSeenAt >= context.until) return false;
  if (e.fixedAt) return e.fixedAt >= context.until;
  return !TRIAGED_AWAY.has(e.status);
}

interface SeverityFigures {
  targetDays: number;
  found: number;
  fixed: number;
  medianDaysToFix: number | null;
  fixedWithinTarget: number;
  shareWithinTarget: number | null;
  openPastTarget: number;
}

interface Bucket {
  target: number;
  found: number;
  times: number[];
  within: number;
  overdue: number;
}

function bucketOf(severity: string | null): string {
  return severity && (TARGET_SEVERITIES as readonly string[]).includes(severity)
    ? severity
    : 'unrated';
}

/** Sorts each exposure into its severity's bucket: found, fixed (in time or not), overdue. */
function tally(context: EvidenceContext, exposures: ExposureRecord[], targets: RemediationTargets) {
  const buckets = new Map<string, Bucket>();
  const gaps: string[] = [];
  const records: RecordRef[] = [];
  for (const e of exposures) {
    const key = bucketOf(e.severity);
    const b = buckets.get(key) ?? {
      target: targetFor(targets, e.severity),
      found: 0,
      times: [],
      within: 0,
      overdue: 0,
    };
    buckets.set(key, b);
    const found = inPeriod(e.firstSeenAt, context.period);
    if (found) b.found += 1;
    if (isRemediation(e) && inPeriod(e.fixedAt, context.period)) {
      const fixedAt = e.fixedAt as Date;
      const taken = days(fixedAt.getTime() - e.firstSeenAt.getTime());
      b.times.push(taken);
      if (taken <= b.target) b.within += 1;
      else
        gaps.push(
          `${label(e, context)} was fixed after ${taken} days, over the ${b.target}-day target`,
        );
      records.push(
        exposureRef(
          e,
          `found ${iso(e.firstSeenAt)}, fixed ${iso(fixedAt)}: ${taken} days (target ${b.target})`,
        ),
      );
    } else if (openAtEnd(e, context)) {
      const age = days(context.until.getTime() - e.firstSeenAt.getTime());
      const note = `found ${iso(e.firstSeenAt)}, open ${age} days at ${iso(context.until)} (target ${b.target})`;
      if (age > b.target) {
        b.overdue += 1;
        gaps.push(
          `${label(e, context)} was still open ${age} days after detection at the end of the period, over the ${b.target}-day target`,
        );
        records.push(exposureRef(e, note));
      } else if (found) records.push(exposureRef(e, note));
    } else if (found) records.push(exposureRef(e, `found ${iso(e.firstSeenAt)}, now ${e.status}`));
  }
  return { buckets, gaps, records };
}

function severityFigures(
  buckets: Map<string, Bucket>,
  targets: RemediationTargets,
): Record<string, SeverityFigures> {
  const bySeverity: Record<string, SeverityFigures> = {};
  for (const key of [...TARGET_SEVERITIES, 'unrated']) {
    const b = buckets.get(key);
    if (!b && key === 'unrated') continue;
    const x = b ?? {
      target: targets[key as keyof RemediationTargets],
      found: 0,
      times: [],
      within: 0,
      overdue: 0,
    };
    bySeverity[key] = {
      targetDays: x.target,
      found: x.found,
      fixed: x.times.length,
      medianDaysToFix: median(x.times),
      fixedWithinTarget: x.within,
      shareWithinTarget: share(x.within, x.times.length),
      openPastTarget: x.overdue,
    };
  }
  return bySeverity;
}

/**
 * Exposures found and fixed in the period, times to fix by severity against the tenant's
 * targets (medians and the share within target), and those left open past their target.
 */
export function remediationEvidence(
  context: EvidenceContext,
  exposures: ExposureRecord[],
  targets: RemediationTargets,
  /** Completed scans in the period: without one, nothing could have been found. */
  scansCompleted: number,
): ItemDraft {
  const { buckets, gaps, records } = tally(context, exposures, targets);
  const bySeverity = severityFigures(buckets, targets);
  const totals = { found: 0, fixed: 0, within: 0, overdue: 0 };
  for (const f of Object.values(bySeverity)) {
    totals.found += f.found;
    totals.fixed += f.fixed;
    totals.within += f.fixedWithinTarget;
    totals.overdue += f.openPastTarget;
  }
  const blind = exposures.length === 0 && scansCompleted === 0;
  return {
    kind: 'vulnerability_remediation',
    title: 'Vulnerability exposures found and fixed, against remediation targets',
    source: 'vulnerability_exposures, vulnerabilities, compliance_settings',
    status: gaps.length > 0 ? 'failing' : blind ? 'no_evidence' : 'passing',
    summary: `${totals.found} exposures found and ${totals.fixed} fixed in the period; ${totals.within} of ${totals.fixed} fixes within target; ${totals.overdue} open past target at the end`,
    figures: {
      found: totals.found,
      fixed: totals.fixed,
      fixedWithinTarget: totals.within,
      shareWithinTarget: share(totals.within, totals.fixed),
      openPastTarget: totals.overdue,
      targets,
      bySeverity,
    },
    gaps: blind
      ? ['no completed scan in the period, so no exposure could be found or fixed']
      : gaps,
    records,
  };
}

const grantedBy = (id: string | null, names: Map<string, string>) =>
  id ? `token ${names.get(id) ?? '(deleted token)'} (${id})` : 'no recorded token';

/** Policy exceptions and risk acceptances granted in the period, with expiries and granters. */
export function exceptionsEvidence(
  context: EvidenceContext,
  exceptions: ExceptionRecord[],
  exposures: ExposureRecord[],
  tokens: Map<string, string>,
): ItemDraft {
  const acceptances = exposures.filter(
    (e) => e.status === 'accepted_risk' && inPeriod(e.statusChangedAt, context.period),
  );
  const gaps: string[] = [];
  const records: RecordRef[] = exceptions.map((x) => {
    if (!x.createdByTokenId) gaps.push(`policy exception ${x.id} has no recorded granter`);
    return {
      type: 'policy_exception',
      id: x.id,
      path: `/api/v1/policy-exceptions/${x.id}`,
      note: `${x.scope} exception to policy ${x.policyName ?? x.policyId} granted ${iso(x.createdAt)} by ${grantedBy(x.createdByTokenId, tokens)}, expires ${iso(x.expiresAt)} (${x.status}); reason: ${x.reason}`,
    };
  });
  for (const e of acceptances) {
    if (!e.statusChangedByTokenId)
      gaps.push(`risk acceptance of exposure ${e.id} has no recorded granter`);
    records.push(
      exposureRef(
        e,
        `risk accepted ${iso(e.statusChangedAt as Date)} by ${grantedBy(e.statusChangedByTokenId, tokens)}, until ${e.acceptedUntil ? iso(e.acceptedUntil) : 'no expiry'}; reason: ${e.statusReason ?? '—'}`,
      ),
    );
  }
  const expiring = exceptions.filter((x) => inPeriod(x.expiresAt, context.period)).length;
  return {
    kind: 'exceptions',
    title: 'Policy exceptions and risk acceptances granted',
    source: 'policy_exceptions, vulnerability_exposures, api_tokens',
    status: gaps.length > 0 ? 'failing' : 'informational',
    summary: `${exceptions.length} policy exceptions and ${acceptances.length} risk acceptances granted in the period, each with an expiry and who granted it`,
    figures: {
      policyExceptionsGranted: exceptions.length,
      policyExceptionsExpiringInPeriod: expiring,
      riskAcceptancesGranted: acceptances.length,
    },
    gaps,
    records,
  };
}
