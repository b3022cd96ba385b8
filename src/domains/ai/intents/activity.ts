import { sql } from 'kysely';
import { Type } from 'typebox';
import { listDueClocks } from '../../cra-reporting/store';
import { listExceptions } from '../../policies/exceptions/store';
import { allPolicies } from '../../policies/store';
import { listViolations, type ViolationRow } from '../../policies/violations/store';
import type { QUANTUM_CLASSIFICATIONS } from '../../quantum/tables';
import { cite, uniqueCitations } from '../citations';
import {
  answer,
  defineIntent,
  PeriodParameter,
  periodOrLast,
  periodValue,
  type Row,
  Severity,
} from '../intent';
import { listed, plural } from '../resolve';
import { newDependencies, queryExposures } from '../store';
import { packageAt, repositoryNames, withRepository } from './shared';

/** Questions about policies, scans, CRA clocks, the quantum inventory and what changed. */

const SHOWN = 50;
const ViolationStatus = Type.Union([
  Type.Literal('open'),
  Type.Literal('acknowledged'),
  Type.Literal('dismissed'),
  Type.Literal('excepted'),
  Type.Literal('resolved'),
]);

function violationRow(v: ViolationRow, names: Map<string, string>): Row {
  return {
    violationId: v.id,
    policyId: v.policy_id,
    policy: v.policy_name,
    repositoryId: v.repository_id,
    repository: names.get(v.repository_id) ?? v.repository_id,
    packageName: v.package_name,
    version: v.version,
    ecosystem: v.ecosystem,
    severity: v.severity,
    action: v.action,
    status: v.status,
    detectedUtc: v.detected_at.toISOString(),
  };
}

const violationCitations = (rows: ViolationRow[]) =>
  uniqueCitations([
    ...rows.map((v) => cite.violation(v.id)),
    ...rows.map((v) => cite.policy(v.policy_id)),
  ]);

export const policyViolations = defineIntent({
  name: 'policies.violations',
  feature: 'policies',
  summary: 'Policy violations by status, severity, repository and period (detected in it)',
  parameters: Type.Object({
    status: Type.Union([ViolationStatus, Type.Null()]),
    severity: Type.Union([Severity, Type.Null()]),
    repository: Type.Union([Type.String({ maxLength: 300 }), Type.Null()]),
    period: PeriodParameter,
    blockingOnly: Type.Boolean(),
  }),
  examples: [
    'Which policy violations are open?',
    'How many blocking violations do we have?',
    'Policy violations detected this week',
  ],
  cues: [
    {
      pattern:
        /\b(?:violations?|violat(?:e|es|ing)|breach(?:es)?|policy|policies|blocking|blocked|gate)\b/,
      weight: 4,
    },
    { pattern: /\b(?:how many|which|list|show|open)\b/, weight: 1 },
  ],
  extract: (q) => {
    const text = q.normalised;
    const status = /\backnowledged\b/.test(text)
      ? 'acknowledged'
      : /\bdismissed\b/.test(text)
        ? 'dismissed'
        : /\bexcepted\b/.test(text)
          ? 'excepted'
          : /\b(?:resolved|fixed|closed)\b/.test(text)
            ? 'resolved'
            : 'open';
    return {
      status,
      severity: q.severities[0] ?? null,
      repository: q.repository,
      period: periodValue(q.period),
      blockingOnly: /\bblock(?:ing|ed|s)?\b/.test(text),
    } as const;
  },
  run: (context, p) =>
    withRepository(
      context,
      p.repository,
      (name) => `Which policy violations are open in repository ${name}?`,
      async (repository) => {
        const page = await listViolations(
          context.db,
          {
            status: p.status ?? undefined,
            severity: p.severity ?? undefined,
            repositoryId: repository?.repositoryId,
          },
          { take: 2000, skip: 0 },
        );
        const from = p.period ? new Date(p.period.fromUtc) : null;
        const to = p.period ? new Date(p.period.toUtc) : null;
        const matching = page.rows.filter(
          (v) =>
            (!p.blockingOnly || v.action === 'block') &&
            (!from || v.detected_at >= from) &&
            (!to || v.detected_at < to),
        );
        const shown = matching.slice(0, SHOWN);
        const names = await repositoryNames(
          context.db,
          shown.map((v) => v.repository_id),
        );
        const rows = shown.map((v) => violationRow(v, names));
        const kind =
          `${p.status ?? ''}${p.blockingOnly ? ' blocking' : ''}${p.severity ? ` ${p.severity}-severity` : ''}`.trim();
        const text = `${plural(matching.length, `${kind} policy violation`)}${repository ? ` in ${repository.fullName}` : ''}${p.period ? ` (${p.period.label})` : ''}${
          rows.length
            ? `: ${listed(
                rows.map(
                  (r) =>
                    `${r.policy} on ${packageAt(String(r.packageName), String(r.version))} (${r.repository})`,
                ),
                3,
              )}`
            : ''
        }.`;
        return answer(text, rows, violationCitations(shown));
      },
    ),
});

export const licenceViolations = defineIntent({
  name: 'policies.licences',
  feature: 'policies',
  summary:
    'Licences that break a policy: open violations of policies whose condition reads the licence',
  parameters: Type.Object({ includeResolved: Type.Boolean() }),
  examples: [
    'Which licences break our policy?',
    'Do we have any licence violations?',
    'Which packages have a forbidden license?',
  ],
  cues: [
    { pattern: /\b(?:licen[cs]es?|licen[cs]ing|copyleft|gpl|agpl|spdx)\b/, weight: 6 },
    {
      pattern:
        /\b(?:violat\w*|break\w*|forbidden|disallowed|not allowed|policy|policies|non-compliant)\b/,
      weight: 1,
    },
  ],
  extract: (q) => ({
    includeResolved: /\b(?:ever|including resolved|history)\b/.test(q.normalised),
  }),
  run: async ({ db }, p) => {
    const policies = (await allPolicies(db)).filter((policy) =>
      /licen[cs]e/i.test(policy.condition),
    );
    const found: ViolationRow[] = [];
    for (const policy of policies) {
      const page = await listViolations(
        db,
        { policyId: policy.id, status: p.includeResolved ? undefined : 'open' },
        { take: 500, skip: 0 },
      );
      found.push(...page.rows);
    }
    const names = await repositoryNames(
      db,
      found.map((v) => v.repository_id),
    );
    const rows = found.slice(0, SHOWN).map((v) => violationRow(v, names));
    const text =
      policies.length === 0
        ? 'None of your policies checks licences.'
        : `${plural(found.length, 'licence violation')} of ${plural(policies.length, 'licence policy', 'licence policies')}${
            rows.length
              ? `: ${listed(
                  rows.map(
                    (r) =>
                      `${packageAt(String(r.packageName), String(r.version))} in ${r.repository} (${r.policy})`,
                  ),
                  3,
                )}`
              : ''
          }.`;
    return answer(
      text,
      rows,
      uniqueCitations([
        ...policies.map((x) => cite.policy(x.id)),
        ...violationCitations(found.slice(0, SHOWN)),
      ]),
    );
  },
});

export const expiringExceptions = defineIntent({
  name: 'policies.exceptions_expiring',
  feature: 'policies',
  summary: 'Policy exceptions that expire soon (default: within 14 days)',
  parameters: Type.Object({ withinHours: Type.Integer({ minimum: 1, maximum: 24 * 366 }) }),
  examples: ['Which policy exceptions expire soon?', 'Exceptions expiring in the next 30 days'],
  cues: [
    { pattern: /\b(?:exceptions?|waivers?|exemptions?)\b/, weight: 5 },
    { pattern: /\b(?:expir\w*|run(?:s|ning)? out|end(?:s|ing)?|lapse|soon|due)\b/, weight: 2 },
  ],
  extract: (q) => ({ withinHours: q.horizonHours ?? 14 * 24 }),
  run: async ({ db, now }, p) => {
    const until = new Date(now.getTime() + p.withinHours * 3_600_000);
    const page = await listExceptions(db, { status: 'active' }, { take: 2000, skip: 0 });
    const due = page.rows
      .filter((e) => e.expires_at <= until)
      .sort((a, b) => a.expires_at.getTime() - b.expires_at.getTime());
    const names = await repositoryNames(
      db,
      due.flatMap((e) => (e.repository_id ? [e.repository_id] : [])),
    );
    const rows: Row[] = due.map((e) => ({
      exceptionId: e.id,
      policyId: e.policy_id,
      packageId: e.package_id,
      repository: e.repository_id ? (names.get(e.repository_id) ?? e.repository_id) : null,
      scope: e.scope,
      reason: e.reason,
      expiresUtc: e.expires_at.toISOString(),
    }));
    const days = Math.round(p.withinHours / 24);
    const text = `${plural(rows.length, 'policy exception')} ${rows.length === 1 ? 'expires' : 'expire'} within ${days >= 1 ? plural(days, 'day') : plural(p.withinHours, 'hour')}${rows.length ? `; the first on ${String(rows[0]?.expiresUtc).slice(0, 10)}` : ''}.`;
    return answer(
      text,
      rows,
      uniqueCitations([
        ...due.map((e) => cite.exception(e.id, e.package_id)),
        ...due.map((e) => cite.policy(e.policy_id)),
      ]),
    );
  },
});

export const scanFailures = defineIntent({
  name: 'scans.failures',
  summary: 'Scans that failed in a period (default: the last 30 days), with their errors',
  parameters: Type.Object({
    repository: Type.Union([Type.String({ maxLength: 300 }), Type.Null()]),
    period: PeriodParameter,
  }),
  examples: ['Which scans failed this week?', 'Show scan failures in the last 30 days'],
  cues: [
    { pattern: /\bscans?\b|\bscanning\b/, weight: 3 },
    {
      pattern:
        /\b(?:fail\w*|errors?|errored|broken|crash\w*|did not (?:finish|complete)|unsuccessful)\b/,
      weight: 3,
    },
  ],
  extract: (q) => ({ repository: q.repository, period: periodOrLast(q, 30) }),
  run: (context, p) =>
    withRepository(
      context,
      p.repository,
      (name) => `Which scans failed in repository ${name}?`,
      async (repository) => {
        const period = p.period ?? {
          fromUtc: new Date(0).toISOString(),
          toUtc: context.now.toISOString(),
          label: 'ever',
        };
        const failed = await context.db
          .selectFrom('scans as s')
          .innerJoin('repositories as r', 'r.id', 's.repository_id')
          .select([
            's.id',
            's.repository_id',
            'r.full_name',
            's.error',
            's.failure_cause',
            's.finished_at',
            's.queued_at',
          ])
          .where('s.state', '=', 'failed')
          .where(sql<Date>`coalesce(s.finished_at, s.queued_at)`, '>=', new Date(period.fromUtc))
          .where(sql<Date>`coalesce(s.finished_at, s.queued_at)`, '<', new Date(period.toUtc))
          .$if(repository !== null, (q) =>
            q.where('s.repository_id', '=', repository?.repositoryId ?? ''),
          )
          .orderBy('s.queued_at', 'desc')
          .limit(SHOWN)
          .execute();
        const rows: Row[] = failed.map((s) => ({
          scanId: s.id,
          repositoryId: s.repository_id,
          repository: s.full_name,
          error: s.error,
          cause: s.failure_cause,
          finishedUtc: (s.finished_at ?? s.queued_at).toISOString(),
        }));
        const text = `${plural(rows.length, 'scan')} failed (${period.label})${rows.length ? `: ${listed([...new Set(rows.map((r) => String(r.repository)))])}` : ''}.`;
        return answer(
          text,
          rows,
          uniqueCitations([
            ...failed.map((s) => cite.scan(s.id)),
            ...failed.map((s) => cite.repository(s.repository_id)),
          ]),
        );
      },
    ),
});

export const craClocksDue = defineIntent({
  name: 'cra.clocks_due',
  feature: 'cra',
  summary: 'CRA Article 14 reporting clocks still running and due soon (default: within 72 hours)',
  parameters: Type.Object({ withinHours: Type.Integer({ minimum: 1, maximum: 24 * 366 }) }),
  examples: ['Which CRA clocks are due?', 'What CRA reports are due in the next 24 hours?'],
  cues: [
    { pattern: /\b(?:cra|cyber resilience|article 14|enisa)\b/, weight: 5 },
    {
      pattern: /\b(?:clocks?|deadlines?|due|reports?|notifications?|early warnings?)\b/,
      weight: 2,
    },
  ],
  extract: (q) => ({ withinHours: q.horizonHours ?? 72 }),
  run: async ({ db, now }, p) => {
    const clocks = await listDueClocks(db, new Date(now.getTime() + p.withinHours * 3_600_000));
    const rows: Row[] = clocks.map((c) => ({
      clockId: c.id,
      productId: c.product_id,
      kind: c.kind,
      trigger: c.trigger,
      vulnerabilityId: c.vulnerability_id,
      dueUtc: c.due_at.toISOString(),
      overdue: c.due_at <= now,
    }));
    const text = `${plural(rows.length, 'CRA clock')} ${rows.length === 1 ? 'is' : 'are'} due within ${plural(p.withinHours, 'hour')}${rows.length ? `; the first, ${rows[0]?.kind}, at ${rows[0]?.dueUtc}` : ''}.`;
    return answer(
      text,
      rows,
      clocks.map((c) => cite.clock(c.id)),
    );
  },
});

export const quantumFindings = defineIntent({
  name: 'quantum.findings',
  feature: 'quantum',
  summary:
    'Quantum-vulnerable cryptography findings by classification (weak, deprecated-2030, disallowed-2035, hybrid, quantum-safe)',
  parameters: Type.Object({ classification: Type.Union([Type.String(), Type.Null()]) }),
  examples: [
    'How many quantum findings do we have by classification?',
    'Which cryptography is disallowed after 2035?',
  ],
  cues: [
    {
      pattern:
        /\b(?:quantum|post-quantum|pqc|cryptograph\w*|crypto|rsa|ecdsa|ecdh|cipher\w*|algorithms?)\b/,
      weight: 5,
    },
    {
      pattern: /\b(?:findings?|classification|weak|deprecated|disallowed|hybrid|safe)\b/,
      weight: 1,
    },
  ],
  extract: (q) => {
    const text = q.normalised;
    const classification = /\bweak\b/.test(text)
      ? 'weak'
      : /\b(?:deprecated|2030)\b/.test(text)
        ? 'deprecated-2030'
        : /\b(?:disallowed|2035)\b/.test(text)
          ? 'disallowed-2035'
          : /\bhybrid\b/.test(text)
            ? 'hybrid'
            : /\bquantum[- ]safe\b/.test(text)
              ? 'quantum-safe'
              : null;
    return { classification };
  },
  run: async ({ db }, p) => {
    const base = db.selectFrom('quantum_findings as f').where('f.present', '=', true);
    if (p.classification === null) {
      const counts = await base
        .select(['f.classification'])
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .groupBy('f.classification')
        .orderBy('f.classification')
        .execute();
      const rows: Row[] = counts.map((c) => ({
        classification: c.classification,
        findings: Number(c.n),
      }));
      const text = rows.length
        ? `Quantum findings by classification: ${listed(
            rows.map((r) => `${r.findings} ${r.classification}`),
            5,
          )}.`
        : 'No quantum findings are present.';
      return answer(text, rows, []);
    }
    const found = await base
      .innerJoin('repositories as r', 'r.id', 'f.repository_id')
      .select([
        'f.id',
        'f.repository_id',
        'r.full_name',
        'f.algorithm',
        'f.file',
        'f.line',
        'f.status',
      ])
      .where('f.classification', '=', p.classification as (typeof QUANTUM_CLASSIFICATIONS)[number])
      .orderBy('r.full_name')
      .orderBy('f.file')
      .limit(SHOWN)
      .execute();
    const rows: Row[] = found.map((f) => ({
      findingId: f.id,
      repositoryId: f.repository_id,
      repository: f.full_name,
      algorithm: f.algorithm,
      file: f.file,
      line: f.line,
      status: f.status,
    }));
    const text = `${plural(rows.length, `${p.classification} quantum finding`)}${rows.length ? ` in ${listed([...new Set(rows.map((r) => String(r.repository)))])}` : ''}.`;
    return answer(
      text,
      rows,
      found.map((f) => cite.quantumFinding(f.id, f.repository_id)),
    );
  },
});

export const changesSince = defineIntent({
  name: 'changes.since',
  summary:
    'What changed in a period (default: the last 7 days): new and fixed exposures, new and resolved violations, new dependencies',
  parameters: Type.Object({ period: PeriodParameter }),
  examples: [
    'What changed since Monday?',
    'What got worse last week?',
    "What's new since yesterday?",
  ],
  cues: [
    {
      pattern:
        /\b(?:changed?|changes|happened|new|worse|better|improved|different|delta|diff|since|got)\b/,
      weight: 2,
    },
    { pattern: /\b(?:what(?:'s| has| have)?|anything)\b/, weight: 1 },
    {
      pattern:
        /\bnew (?:dependenc(?:y|ies)|packages?|libraries|deps)\b|\bdependenc(?:y|ies) (?:added|introduced)\b/,
      weight: 4,
    },
    {
      pattern:
        /\bwhat (?:changed|happened|got worse|got better|is new|'s new)\b|\bwhat's new\b|\banything (?:new|different|changed)\b/,
      weight: 3,
    },
  ],
  extract: (q) => ({ period: periodOrLast(q, 7) }),
  run: async ({ db }, p) => {
    const period = p.period ?? {
      fromUtc: new Date(0).toISOString(),
      toUtc: new Date().toISOString(),
      label: 'ever',
    };
    const from = new Date(period.fromUtc);
    const to = new Date(period.toUtc);
    const opened = await queryExposures(db, { event: 'opened', from, to }, SHOWN);
    const fixed = await queryExposures(
      db,
      { event: 'fixed', from, to, statuses: ['fixed'] },
      SHOWN,
    );
    const violations = await listViolations(db, {}, { take: 2000, skip: 0 });
    const newViolations = violations.rows.filter(
      (v) => v.detected_at >= from && v.detected_at < to,
    );
    const resolved = violations.rows.filter(
      (v) => v.resolved_at && v.resolved_at >= from && v.resolved_at < to,
    );
    const added = await newDependencies(db, from, to, SHOWN);
    const names = await repositoryNames(
      db,
      [...opened.rows, ...fixed.rows].map((e) => e.repository_id),
    );
    const rows: Row[] = [
      ...opened.rows.map((e) => ({
        change: 'exposure_opened',
        id: e.id,
        repository: names.get(e.repository_id) ?? e.repository_id,
        subject: `${e.canonical_id} in ${packageAt(e.package_name, e.version)}`,
        atUtc: e.first_seen_at.toISOString(),
      })),
      ...fixed.rows.map((e) => ({
        change: 'exposure_fixed',
        id: e.id,
        repository: names.get(e.repository_id) ?? e.repository_id,
        subject: `${e.canonical_id} in ${packageAt(e.package_name, e.version)}`,
        atUtc: e.fixed_at?.toISOString() ?? null,
      })),
      ...newViolations.map((v) => ({
        change: 'violation_opened',
        id: v.id,
        repository: v.repository_id,
        subject: `${v.policy_name}: ${packageAt(v.package_name, v.version)}`,
        atUtc: v.detected_at.toISOString(),
      })),
      ...resolved.map((v) => ({
        change: 'violation_resolved',
        id: v.id,
        repository: v.repository_id,
        subject: `${v.policy_name}: ${packageAt(v.package_name, v.version)}`,
        atUtc: v.resolved_at?.toISOString() ?? null,
      })),
      ...added.rows.map((d) => ({
        change: 'dependency_added',
        id: d.package_id,
        repository: d.full_name,
        subject: `${packageAt(d.name, d.version)} (${d.ecosystem})`,
        atUtc: d.first_seen_at.toISOString(),
      })),
    ];
    const text = `${period.label}: ${plural(opened.total, 'new exposure')}, ${plural(fixed.total, 'fixed exposure')}, ${plural(newViolations.length, 'new policy violation')}, ${plural(resolved.length, 'resolved violation')} and ${plural(added.total, 'new dependency', 'new dependencies')}.`;
    return answer(
      text,
      rows,
      uniqueCitations([
        ...opened.rows.map((e) => cite.exposure(e.id)),
        ...fixed.rows.map((e) => cite.exposure(e.id)),
        ...newViolations.map((v) => cite.violation(v.id)),
        ...resolved.map((v) => cite.violation(v.id)),
        ...added.rows.map((d) => cite.package(d.package_id)),
        ...added.rows.map((d) => cite.repository(d.repository_id)),
      ]),
    );
  },
});
