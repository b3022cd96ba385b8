import { Type } from 'typebox';
import { EXPOSURE_STATUSES, type ExposureStatus } from '../../exposures/tables';
import { cite, uniqueCitations } from '../citations';
import {
  answer,
  defineIntent,
  type IntentContext,
  PackageParameter,
  PeriodParameter,
  periodValue,
  Severity,
} from '../intent';
import type { ParsedQuestion } from '../parse/question';
import { UNRESOLVED_STATUSES } from '../parse/vocabulary';
import { listed, plural } from '../resolve';
import { countExposuresBy, type ExposureQuery, queryExposures } from '../store';
import { exposureRow, packageAt, repositoryNames, withPackage, withRepository } from './shared';

/** Questions over the tenant's exposures: filtered lists and counts, malicious packages, reachability. */

const SHOWN = 50;
const Status = Type.Union([
  Type.Literal('open'),
  Type.Literal('investigating'),
  Type.Literal('affected'),
  Type.Literal('not_affected'),
  Type.Literal('false_positive'),
  Type.Literal('accepted_risk'),
  Type.Literal('fixed'),
]);
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) =>
  Type.Union([t, Type.Null()]);

const EVENTS = ['current', 'opened', 'fixed', 'reopened'] as const;

const ExposureParameters = Type.Object({
  statuses: Type.Array(Status, { minItems: 1 }),
  severity: Nullable(Severity),
  ecosystem: Nullable(Type.String()),
  repository: Nullable(Type.String({ maxLength: 300 })),
  package: PackageParameter,
  event: Type.Union([
    Type.Literal('current'),
    Type.Literal('opened'),
    Type.Literal('fixed'),
    Type.Literal('reopened'),
  ]),
  period: PeriodParameter,
});

function eventOf(q: ParsedQuestion): (typeof EVENTS)[number] {
  const text = q.normalised;
  if (/\b(?:reopened|re-opened|reintroduced|came back|regressed|returned)\b/.test(text))
    return 'reopened';
  if (
    /\b(?:fixed|resolved|remediated|patched|closed)\b/.test(text) &&
    (q.period || /\b(?:did we|were|got|have we|was)\b/.test(text))
  )
    return 'fixed';
  if (
    /\b(?:new|opened|introduced|appeared|discovered|detected|found|showed up|popped up)\b/.test(
      text,
    ) ||
    q.period
  )
    return 'opened';
  return 'current';
}

function statusesOf(q: ParsedQuestion, event: (typeof EVENTS)[number]): ExposureStatus[] {
  if (event === 'fixed') return ['fixed'];
  if (event === 'opened' || event === 'reopened')
    return q.statuses.length ? q.statuses : [...EXPOSURE_STATUSES];
  return q.statuses.length ? q.statuses : [...UNRESOLVED_STATUSES];
}

const EVENT_WORDS = { current: '', opened: ' opened', fixed: ' fixed', reopened: ' reopened' };

function describe(
  p: {
    statuses: string[];
    severity: string | null;
    ecosystem: string | null;
    event: keyof typeof EVENT_WORDS;
  },
  total: number,
) {
  const statusWord =
    p.event !== 'current'
      ? ''
      : p.statuses.join(',') === UNRESOLVED_STATUSES.join(',')
        ? 'unresolved '
        : `${p.statuses.join(' or ').replace(/_/g, ' ')} `;
  const severity = p.severity ? `${p.severity}-severity ` : '';
  const ecosystem = p.ecosystem ? ` in ${p.ecosystem} packages` : '';
  return `${total} ${statusWord}${severity}${total === 1 ? 'exposure' : 'exposures'}${EVENT_WORDS[p.event]}${ecosystem}`;
}

export const exposures = defineIntent({
  name: 'exposures.list',
  summary:
    'Exposures by severity, status, ecosystem, repository, package and period (opened, fixed or reopened in it): how many, where, the newest 50',
  parameters: ExposureParameters,
  examples: [
    'How many critical exposures are open?',
    'Show high severity vulnerabilities in npm packages',
    'Which exposures were fixed last month?',
    'What new vulnerabilities appeared since Monday?',
    'Is lodash vulnerable?',
  ],
  refuses: 'vulnerabilityId',
  cues: [
    {
      pattern:
        /\b(?:exposures?|vulnerabilit(?:y|ies)|vulns?|cves?|findings?|advisories|security (?:issues|problems|holes|bugs)|flaws)\b/,
      weight: 3,
    },
    { pattern: /\b(?:how many|count|number of|list|show|which|what)\b/, weight: 1 },
    { pattern: /\b(?:vulnerable|exposed|insecure)\b/, weight: 2 },
    { pattern: /\b(?:is|are)\s+\S+\s+(?:vulnerable|affected|safe|exposed|insecure)\b/, weight: 3 },
    {
      pattern:
        /\b(?:reopened|reintroduced|came back|regressed|opened|new|introduced|appeared|fixed|resolved)\b/,
      weight: 1,
    },
    { pattern: /\b(?:critical|high|medium|moderate|low)\b/, weight: 1 },
  ],
  extract: (q) => {
    const event = eventOf(q);
    const mention = q.packages[0];
    return {
      statuses: statusesOf(q, event),
      severity: q.severities[0] ?? null,
      ecosystem: mention?.ecosystem ?? q.ecosystems[0] ?? null,
      repository: q.repository,
      package: mention
        ? {
            name: mention.name,
            ecosystem: mention.ecosystem ?? q.ecosystems[0] ?? null,
            version: mention.version,
          }
        : null,
      event,
      period: periodValue(q.period),
    };
  },
  run: (context, p) =>
    withRepository(
      context,
      p.repository,
      (name) => `Which exposures are open in repository ${name}?`,
      (repository) =>
        withPackage(
          context,
          p.package,
          (purl) => `Is ${purl} vulnerable?`,
          async (pkg) => {
            const query: ExposureQuery = {
              statuses: p.statuses,
              severity: p.severity,
              ecosystem: p.ecosystem,
              repositoryId: repository?.repositoryId ?? null,
              packageId: pkg?.packageId ?? null,
              version: p.package?.version ?? null,
              event: p.event === 'current' ? null : p.event,
              from: p.period ? new Date(p.period.fromUtc) : null,
              to: p.period ? new Date(p.period.toUtc) : null,
            };
            return exposureAnswer(
              context,
              query,
              p,
              [
                repository ? ` in ${repository.fullName}` : '',
                pkg
                  ? ` of ${packageAt(pkg.name, p.package?.version ?? null)} (${pkg.ecosystem})`
                  : '',
                p.period ? ` (${p.period.label})` : '',
              ].join(''),
            );
          },
        ),
    ),
});

async function exposureAnswer(
  { db }: IntentContext,
  query: ExposureQuery,
  p: {
    statuses: string[];
    severity: string | null;
    ecosystem: string | null;
    event: keyof typeof EVENT_WORDS;
  },
  where: string,
) {
  const found = await queryExposures(db, query, SHOWN);
  const names = await repositoryNames(
    db,
    found.rows.map((e) => e.repository_id),
  );
  const rows = found.rows.map((e) => exposureRow(e, names));
  const across =
    found.total > 0 ? ` across ${plural(found.repositories, 'repository', 'repositories')}` : '';
  const shown = found.total > rows.length ? ` The newest ${rows.length} are listed.` : '';
  const worst = rows
    .slice(0, 3)
    .map((r) => `${r.canonicalId} in ${packageAt(r.packageName, r.version)} (${r.repository})`);
  const text = `${describe(p, found.total)}${where}${across}.${worst.length ? ` Newest: ${listed(worst, 3)}.` : ''}${shown}`;
  return answer(
    text,
    rows,
    uniqueCitations([
      ...rows.map((r) => cite.exposure(r.exposureId)),
      ...rows.map((r) => cite.repository(r.repositoryId)),
    ]),
  );
}

export const maliciousPackages = defineIntent({
  name: 'exposures.malicious',
  summary: 'Malicious packages (OSV MAL- records) found in your repositories',
  parameters: Type.Object({ includeResolved: Type.Boolean(), period: PeriodParameter }),
  examples: [
    'Which malicious packages did we find?',
    'Do we have any malware in our dependencies?',
  ],
  cues: [
    {
      pattern:
        /\b(?:malicious|malware|compromised|backdoor(?:ed)?|typosquat(?:s|ting|ted)?|trojan)\b/,
      weight: 6,
    },
    { pattern: /\b(?:packages?|dependenc(?:y|ies)|found|have|any)\b/, weight: 1 },
  ],
  extract: (q) => ({
    includeResolved: /\b(?:ever|including fixed|history|removed)\b/.test(q.normalised),
    period: periodValue(q.period),
  }),
  run: async (context, p) =>
    exposureAnswer(
      context,
      {
        kind: 'malicious',
        statuses: p.includeResolved ? [...EXPOSURE_STATUSES] : [...UNRESOLVED_STATUSES],
        event: p.period ? 'opened' : null,
        from: p.period ? new Date(p.period.fromUtc) : null,
        to: p.period ? new Date(p.period.toUtc) : null,
      },
      {
        statuses: p.includeResolved ? [...EXPOSURE_STATUSES] : [...UNRESOLVED_STATUSES],
        severity: null,
        ecosystem: null,
        event: 'current',
      },
      ` of malicious packages${p.period ? ` (${p.period.label})` : ''}`,
    ),
});

const REACHABILITY_WORDS: Record<string, string> = {
  imported: 'reachable (imported by your code)',
  used_by_tooling: 'used only by tooling',
  not_imported: 'unreachable (never imported)',
  unknown: 'of unknown reachability',
};

export const reachability = defineIntent({
  name: 'exposures.reachability',
  summary:
    'Reachable versus unreachable findings: unresolved exposures by reachability, optionally one kind listed',
  parameters: Type.Object({
    only: Type.Union([
      Type.Literal('imported'),
      Type.Literal('not_imported'),
      Type.Literal('used_by_tooling'),
      Type.Null(),
    ]),
    severity: Nullable(Severity),
  }),
  examples: [
    'How many findings are reachable versus unreachable?',
    'Which vulnerabilities are actually reachable?',
  ],
  cues: [
    {
      pattern:
        /\b(?:reachable|unreachable|reachability|imported|actually used|called|dead code|not imported)\b/,
      weight: 6,
    },
    { pattern: /\b(?:findings?|exposures?|vulnerabilit(?:y|ies)|vulns?)\b/, weight: 1 },
  ],
  extract: (q) => {
    const text = q.normalised;
    const both =
      /\b(?:vs\.?|versus|compared|and unreachable|or unreachable|breakdown|split)\b/.test(text);
    const only: 'imported' | 'not_imported' | 'used_by_tooling' | null = both
      ? null
      : /\b(?:unreachable|not imported|never imported|dead code|not (?:actually )?(?:used|reachable))\b/.test(
            text,
          )
        ? 'not_imported'
        : /\btooling\b/.test(text)
          ? 'used_by_tooling'
          : /\b(?:reachable|imported|actually used|called)\b/.test(text)
            ? 'imported'
            : null;
    return { only, severity: q.severities[0] ?? null };
  },
  run: async (context, p) => {
    const base: ExposureQuery = { statuses: UNRESOLVED_STATUSES, severity: p.severity };
    if (p.only) return reachabilityList(context, base, p.only);
    const counts = await countExposuresBy(context.db, base, 'e.reachability');
    const rows = counts.map((c) => ({ reachability: c.value ?? 'unknown', exposures: c.count }));
    const text = rows.length
      ? `Unresolved exposures by reachability: ${listed(
          rows.map(
            (r) => `${r.exposures} ${REACHABILITY_WORDS[String(r.reachability)] ?? r.reachability}`,
          ),
          4,
        )}.`
      : 'You have no unresolved exposures.';
    return answer(text, rows, []);
  },
});

async function reachabilityList(
  context: IntentContext,
  base: ExposureQuery,
  only: 'imported' | 'not_imported' | 'used_by_tooling',
) {
  const found = await queryExposures(context.db, { ...base, reachability: only }, SHOWN);
  const names = await repositoryNames(
    context.db,
    found.rows.map((e) => e.repository_id),
  );
  const rows = found.rows.map((e) => exposureRow(e, names));
  const examples = rows.map(
    (r) => `${r.canonicalId} in ${packageAt(r.packageName, r.version)} (${r.repository})`,
  );
  const text = `${plural(found.total, 'unresolved exposure')} ${found.total === 1 ? 'is' : 'are'} ${REACHABILITY_WORDS[only]}${examples.length ? `: ${listed(examples, 3)}` : ''}.`;
  return answer(text, rows, uniqueCitations(rows.map((r) => cite.exposure(r.exposureId))));
}
