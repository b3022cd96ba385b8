import { type Kysely, sql } from 'kysely';
import { Type } from 'typebox';
import type { DB } from '../../../db/schema';
import { listFindings } from '../../cra/findings/findings';
import { cite, uniqueCitations } from '../citations';
import { answer, defineIntent, type IntentContext, type IntentResult, type Row } from '../intent';
import { listed, plural } from '../resolve';
import { packageAt, withRepository } from './shared';

/**
 * Questions about what needs looking after: CRA findings of the declared products, the quantum
 * verdict of the live TLS endpoints, deprecated (yanked, end-of-life) packages in use,
 * dependencies whole major versions behind, and repositories without a recent completed scan.
 * Each reads the tenant's own rows in a tenant-scoped transaction.
 */

const SHOWN = 50;
/** Rows read to count an answer before the first SHOWN are listed. */
const COUNTED = 1000;

const FindingState = Type.Union([
  Type.Literal('open'),
  Type.Literal('under_assessment'),
  Type.Literal('remediated'),
  Type.Literal('not_exploitable'),
  Type.Literal('reported'),
]);

function findingStateIn(text: string) {
  if (/\b(?:every|all|any state|whatever state)\b/.test(text)) return null;
  if (/\b(?:remediated|fixed|resolved|closed)\b/.test(text)) return 'remediated' as const;
  if (/\bnot exploitable\b|\bnot_exploitable\b/.test(text)) return 'not_exploitable' as const;
  if (/\bunder assessment\b|\bbeing assessed\b|\bassessing\b/.test(text))
    return 'under_assessment' as const;
  if (/\breported\b/.test(text)) return 'reported' as const;
  return 'open' as const;
}

/** "product gateway", "product named billing portal": one word is enough to find it. */
function productIn(text: string): string | null {
  const name = /\bproduct\s+(?:named\s+|called\s+)?["'`]?([a-z0-9][\w.-]*)/.exec(text)?.[1];
  if (!name || /^(?:under|we|do|does|is|are|has|have|with|in|of|for)$/.test(name)) return null;
  return name;
}

async function withProduct(
  context: IntentContext,
  name: string | null,
  then: (product: { id: string; name: string } | null) => Promise<IntentResult>,
): Promise<IntentResult> {
  if (name === null) return then(null);
  const found = await context.db
    .selectFrom('cra_products')
    .select(['id', 'name', 'version_line'])
    .where(sql<boolean>`strpos(lower(name), ${name.toLowerCase()}) > 0`)
    .orderBy('name')
    .limit(10)
    .execute();
  const [first] = found;
  if (!first) return answer(`You have no CRA product named "${name}".`, [], []);
  if (found.length > 1) {
    return {
      kind: 'clarification',
      answer: `"${name}" matches ${found.length} CRA products. Which one do you mean?`,
      choices: found.map((p) => ({
        label: `${p.name} ${p.version_line}`,
        question: `Which CRA findings of product "${p.name}" are open?`,
      })),
      citations: found.map((p) => cite.craProduct(p.id)),
    };
  }
  return then({ id: first.id, name: first.name });
}

export const craFindings = defineIntent({
  name: 'cra.findings',
  feature: 'cra',
  summary:
    "CRA findings of the declared products (their repositories' exposures and policy violations) by product and CRA state (default: open)",
  parameters: Type.Object({
    product: Type.Union([Type.String({ minLength: 1, maxLength: 200 }), Type.Null()]),
    state: Type.Union([FindingState, Type.Null()]),
  }),
  examples: ['Which CRA findings are open?', 'Open CRA findings of product Gateway'],
  cues: [
    { pattern: /\b(?:cra|cyber resilience(?: act)?)\b/, weight: 4 },
    { pattern: /\bfindings?\b|\bissues\b/, weight: 5 },
  ],
  extract: (q) => ({ product: productIn(q.normalised), state: findingStateIn(q.normalised) }),
  run: (context, p) =>
    withProduct(context, p.product, async (product) => {
      const { items, total } = await listFindings(
        context.db,
        { productId: product?.id, state: p.state ?? undefined },
        { take: SHOWN, skip: 0 },
      );
      const products = await context.db.selectFrom('cra_products').select(['id', 'name']).execute();
      const names = new Map(products.map((x) => [x.id, x.name]));
      const rows: Row[] = items.map((f) => ({
        findingId: f.findingId,
        source: f.source,
        productId: f.productId,
        product: names.get(f.productId) ?? f.productId,
        repositoryId: f.repositoryId,
        packageName: f.packageName,
        version: f.version,
        vulnerability: f.canonicalId,
        severity: f.severity,
        state: f.state,
        activelyExploited: f.activelyExploited,
        detectedUtc: f.detectedAtUtc,
      }));
      const kind = p.state ? `${p.state.replace('_', ' ')} ` : '';
      const text = `${plural(total, `${kind}CRA finding`)}${product ? ` of ${product.name}` : ''}${
        rows.length
          ? `: ${listed(
              rows.map(
                (r) =>
                  `${r.vulnerability ?? 'policy violation'} in ${packageAt(String(r.packageName), r.version === null ? null : String(r.version))} (${r.product})`,
              ),
              3,
            )}`
          : ''
      }.`;
      return answer(
        text,
        rows,
        uniqueCitations([
          ...items.map((f) =>
            f.source === 'vulnerability' ? cite.exposure(f.findingId) : cite.violation(f.findingId),
          ),
          ...items.map((f) => cite.craProduct(f.productId)),
        ]),
      );
    }),
});

const TLS_VERDICTS = ['vulnerable', 'hybrid', 'pq-kex', 'quantum-safe'] as const;
const TlsVerdict = Type.Union([
  Type.Literal('vulnerable'),
  Type.Literal('hybrid'),
  Type.Literal('pq-kex'),
  Type.Literal('quantum-safe'),
  Type.Literal('unknown'),
]);

function verdictIn(text: string) {
  if (/\bquantum[- ]safe\b|\bpq[- ]only\b/.test(text)) return 'quantum-safe' as const;
  if (/\bhybrid\b/.test(text)) return 'hybrid' as const;
  if (/\bpq[- ]kex\b|\bpost-quantum key exchange\b|\bml-?kem\b/.test(text))
    return 'pq-kex' as const;
  if (/\b(?:vulnerable|classical|not (?:quantum[- ])?(?:ready|safe))\b/.test(text))
    return 'vulnerable' as const;
  if (/\b(?:never probed|not probed|unknown|no verdict)\b/.test(text)) return 'unknown' as const;
  return null;
}

export const tlsVerdicts = defineIntent({
  name: 'quantum.tls_verdicts',
  feature: 'quantum',
  summary:
    "Quantum readiness of the watched TLS endpoints: the verdict of each one's latest probe that had one (vulnerable, hybrid, pq-kex, quantum-safe; unknown: never probed)",
  parameters: Type.Object({ verdict: Type.Union([TlsVerdict, Type.Null()]) }),
  examples: [
    'Which TLS endpoints are quantum-vulnerable?',
    'Are our live endpoints quantum ready?',
  ],
  cues: [
    { pattern: /\btls\b|\bssl\b|\bendpoints?\b|\bhosts?\b|\bservers?\b/, weight: 3 },
    {
      pattern:
        /\bquantum\b|\bpost-quantum\b|\bpq\b|\bhybrid\b|\bverdicts?\b|\bkey exchange\b|\bready\b|\breadiness\b/,
      weight: 4,
    },
    // "vulnerable" alone is an exposure question; next to an endpoint word it is a verdict.
    {
      pattern:
        /\b(?:tls|ssl|endpoints?|hosts?|servers?)\b.*\bvulnerable\b|\bvulnerable\b.*\b(?:tls|ssl|endpoints?|hosts?|servers?)\b/,
      weight: 5,
    },
  ],
  extract: (q) => ({ verdict: verdictIn(q.normalised) }),
  run: async ({ db }, p) => {
    const endpoints = await db
      .selectFrom('quantum_tls_endpoints as e')
      .select(['e.id', 'e.host', 'e.port', 'e.repository_id', 'e.last_probed_at'])
      .select((eb) => [
        eb
          .selectFrom('quantum_tls_observations as o')
          .select('o.state')
          .whereRef('o.endpoint_id', '=', 'e.id')
          .where('o.state', 'in', [...TLS_VERDICTS])
          .orderBy('o.observed_at', 'desc')
          .orderBy('o.id', 'desc')
          .limit(1)
          .as('verdict'),
        eb
          .selectFrom('quantum_tls_observations as o')
          .select('o.observed_at')
          .whereRef('o.endpoint_id', '=', 'e.id')
          .where('o.state', 'in', [...TLS_VERDICTS])
          .orderBy('o.observed_at', 'desc')
          .orderBy('o.id', 'desc')
          .limit(1)
          .as('verdict_at'),
      ])
      .orderBy('e.host')
      .orderBy('e.port')
      .limit(1000)
      .execute();
    const matching = endpoints.filter(
      (e) => p.verdict === null || (e.verdict ?? 'unknown') === p.verdict,
    );
    const shown = matching.slice(0, SHOWN);
    const rows: Row[] = shown.map((e) => ({
      endpointId: e.id,
      host: e.host,
      port: e.port,
      repositoryId: e.repository_id,
      verdict: e.verdict ?? 'unknown',
      verdictUtc: e.verdict_at ? new Date(e.verdict_at).toISOString() : null,
      lastProbedUtc: e.last_probed_at ? e.last_probed_at.toISOString() : null,
    }));
    const counts = new Map<string, number>();
    for (const e of matching)
      counts.set(e.verdict ?? 'unknown', (counts.get(e.verdict ?? 'unknown') ?? 0) + 1);
    const text =
      p.verdict === null
        ? `Of ${plural(matching.length, 'watched TLS endpoint')}: ${
            matching.length
              ? listed(
                  [...counts.entries()].map(([v, n]) => `${n} ${v}`),
                  5,
                )
              : 'none'
          }.`
        : `${plural(matching.length, `${p.verdict} TLS endpoint`)}${rows.length ? `: ${listed(rows.map((r) => `${r.host}:${r.port}`))}` : ''}.`;
    return answer(
      text,
      rows,
      shown.map((e) => cite.tlsEndpoint(e.id)),
    );
  },
});

/** The current scan's drift rows of each repository, with the package and the repository. */
function currentDrift(db: Kysely<DB>) {
  return db
    .selectFrom('dependency_drift as d')
    .innerJoin('repositories as r', (j) =>
      j.onRef('r.id', '=', 'd.repository_id').onRef('r.dependency_scan_id', '=', 'd.scan_id'),
    )
    .innerJoin('packages as p', 'p.id', 'd.package_id')
    .select([
      'p.id as package_id',
      'p.ecosystem',
      'p.name',
      'd.used_version',
      'd.latest_stable',
      'd.major_behind',
      'd.deprecated',
      'd.yanked',
      'd.end_of_life',
      'r.id as repository_id',
      'r.full_name',
    ]);
}

type DriftRow = Awaited<ReturnType<ReturnType<typeof currentDrift>['execute']>>[number];

const driftRow = (d: DriftRow): Row => ({
  packageId: d.package_id,
  ecosystem: d.ecosystem,
  name: d.name,
  version: d.used_version,
  latestStable: d.latest_stable,
  majorsBehind: d.major_behind,
  deprecated: d.deprecated,
  yanked: d.yanked,
  endOfLife: d.end_of_life,
  repositoryId: d.repository_id,
  repository: d.full_name,
});

const driftCitations = (found: DriftRow[]) =>
  uniqueCitations([
    ...found.map((d) => cite.package(d.package_id)),
    ...found.map((d) => cite.repository(d.repository_id)),
  ]);

const Flag = Type.Union([
  Type.Literal('deprecated'),
  Type.Literal('yanked'),
  Type.Literal('end_of_life'),
]);

function flagIn(text: string) {
  const named = [
    /\bdeprecat\w*/.test(text) ? ('deprecated' as const) : null,
    /\byanked\b/.test(text) ? ('yanked' as const) : null,
    /\bend[- ]of[- ]life\b|\beol\b/.test(text) ? ('end_of_life' as const) : null,
  ].filter((f) => f !== null);
  return named.length === 1 ? (named[0] ?? null) : null;
}

export const deprecatedPackages = defineIntent({
  name: 'packages.deprecated',
  summary:
    'Deprecated, yanked or end-of-life package versions your repositories use now (their current scan), optionally of one kind or one repository',
  parameters: Type.Object({
    flag: Type.Union([Flag, Type.Null()]),
    repository: Type.Union([Type.String({ maxLength: 300 }), Type.Null()]),
  }),
  examples: ['Which deprecated packages are we using?', 'Which end-of-life packages are in use?'],
  cues: [
    { pattern: /\bdeprecat\w*|\byanked\b|\bend[- ]of[- ]life\b|\beol\b/, weight: 6 },
    { pattern: /\b(?:packages?|dependenc(?:y|ies)|libraries|libs|deps|versions?)\b/, weight: 1 },
  ],
  extract: (q) => ({ flag: flagIn(q.normalised), repository: q.repository }),
  run: (context, p) =>
    withRepository(
      context,
      p.repository,
      (name) => `Which deprecated packages are used in repository ${name}?`,
      async (repository) => {
        const found = await currentDrift(context.db)
          .where((eb) =>
            p.flag === null
              ? eb.or([
                  eb('d.deprecated', '=', true),
                  eb('d.yanked', '=', true),
                  eb('d.end_of_life', '=', true),
                ])
              : eb(`d.${p.flag}`, '=', true),
          )
          .$if(repository !== null, (q) => q.where('r.id', '=', repository?.repositoryId ?? ''))
          .orderBy('p.name')
          .orderBy('r.full_name')
          .limit(COUNTED)
          .execute();
        const shown = found.slice(0, SHOWN);
        const kind =
          p.flag === null ? 'deprecated, yanked or end-of-life' : p.flag.replaceAll('_', '-');
        const text = `${plural(found.length, `${kind} package version`)} in use${repository ? ` in ${repository.fullName}` : ''}${
          shown.length
            ? `: ${listed(shown.map((d) => `${packageAt(d.name, d.used_version)} (${d.full_name})`))}`
            : ''
        }.`;
        return answer(text, shown.map(driftRow), driftCitations(shown));
      },
    ),
});

const MAJOR_WORDS: Record<string, number> = { a: 1, one: 1, two: 2, three: 3, four: 4, five: 5 };

function majorsIn(text: string): number {
  const more = /\bmore than (\d{1,2}|one|two|three|four|five)\s+majors?\b/.exec(text)?.[1];
  if (more) return (MAJOR_WORDS[more] ?? Number(more)) + 1;
  const n = /\b(\d{1,2}|a|one|two|three|four|five)\s+(?:or more\s+)?majors?\b/.exec(text)?.[1];
  return n ? (MAJOR_WORDS[n] ?? Math.max(1, Number(n))) : 1;
}

export const majorsBehind = defineIntent({
  name: 'drift.majors_behind',
  summary:
    'Dependencies at least N major versions behind the latest stable release (default 1), by ecosystem or repository',
  parameters: Type.Object({
    minMajors: Type.Integer({ minimum: 1, maximum: 100 }),
    ecosystem: Type.Union([Type.String(), Type.Null()]),
    repository: Type.Union([Type.String({ maxLength: 300 }), Type.Null()]),
  }),
  examples: [
    'Which dependencies are a major version behind?',
    'Which packages are at least 2 majors behind?',
  ],
  cues: [
    // "major" next to a version, "behind" or a number: not "major vulnerabilities".
    {
      pattern:
        /\bmajors?\b(?:\s+(?:versions?|releases?))?\s+(?:behind|old|out)\b|\bbehind\b.*\bmajors?\b|\b(?:\d{1,2}|a|one|two|three|four|five)\s+(?:or more\s+)?majors?\b/,
      weight: 6,
    },
    { pattern: /\bbehind\b|\boutdated\b|\bout of date\b|\blagging\b/, weight: 2 },
  ],
  extract: (q) => ({
    minMajors: majorsIn(q.normalised),
    ecosystem: q.ecosystems[0] ?? null,
    repository: q.repository,
  }),
  run: (context, p) =>
    withRepository(
      context,
      p.repository,
      (name) => `Which dependencies are a major version behind in repository ${name}?`,
      async (repository) => {
        const found = await currentDrift(context.db)
          .where('d.major_behind', '>=', p.minMajors)
          .$if(p.ecosystem !== null, (q) => q.where('p.ecosystem', '=', p.ecosystem ?? ''))
          .$if(repository !== null, (q) => q.where('r.id', '=', repository?.repositoryId ?? ''))
          .orderBy('d.major_behind', 'desc')
          .orderBy('p.name')
          .orderBy('r.full_name')
          .limit(COUNTED)
          .execute();
        const shown = found.slice(0, SHOWN);
        const noun = p.ecosystem ? `${p.ecosystem} ` : '';
        const text = `${plural(found.length, `${noun}dependency`, `${noun}dependencies`)} ${found.length === 1 ? 'is' : 'are'} at least ${plural(p.minMajors, 'major version')} behind${repository ? ` in ${repository.fullName}` : ''}${
          shown.length
            ? `: ${listed(
                shown.map(
                  (d) =>
                    `${packageAt(d.name, d.used_version)} (${d.full_name}, latest ${d.latest_stable ?? '?'})`,
                ),
                3,
              )}`
            : ''
        }.`;
        return answer(text, shown.map(driftRow), driftCitations(shown));
      },
    ),
});

function staleDaysIn(text: string): number | null {
  if (/\bnever\b/.test(text)) return null;
  const m = /\b(\d{1,4})\s+(days?|weeks?|months?)\b/.exec(text);
  if (m) {
    const n = Number(m[1]);
    const unit = m[2] ?? 'day';
    return unit.startsWith('day') ? n : unit.startsWith('week') ? n * 7 : n * 30;
  }
  if (/\b(?:this|a|last|past) week\b/.test(text)) return 7;
  if (/\b(?:this|a|last|past) year\b/.test(text)) return 365;
  return 30;
}

export const staleScans = defineIntent({
  name: 'scans.stale',
  summary:
    'Repositories (not archived) without a completed scan in the last N days (default 30), or never completed one',
  parameters: Type.Object({
    days: Type.Union([Type.Integer({ minimum: 1, maximum: 3650 }), Type.Null()]),
  }),
  examples: [
    'Which repositories have not been scanned in 30 days?',
    'Which repositories were never scanned?',
  ],
  cues: [
    { pattern: /\bscans?\b|\bscanned\b|\bscanning\b/, weight: 3 },
    {
      pattern:
        /\b(?:never|not been|haven't|hasn't|have not|has not|without|no (?:recent|completed|successful))\b|\bstale\b|\boverdue\b/,
      weight: 5,
    },
  ],
  extract: (q) => ({ days: staleDaysIn(q.normalised) }),
  run: async ({ db, now }, p) => {
    const since = p.days === null ? null : new Date(now.getTime() - p.days * 86_400_000);
    const found = await db
      .selectFrom('repositories as r')
      .select(['r.id', 'r.full_name'])
      .select((eb) =>
        eb
          .selectFrom('scans as s')
          .select((sb) => sb.fn.max('s.finished_at').as('at'))
          .whereRef('s.repository_id', '=', 'r.id')
          .where('s.state', '=', 'completed')
          .as('last_completed'),
      )
      .where('r.lifecycle_status', '!=', 'archived')
      .orderBy('r.full_name')
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('scans as s')
              .select('s.id')
              .whereRef('s.repository_id', '=', 'r.id')
              .where('s.state', '=', 'completed')
              .$if(since !== null, (q) => q.where('s.finished_at', '>=', since ?? now)),
          ),
        ),
      )
      .limit(COUNTED)
      .execute();
    found.sort(
      (a, b) =>
        (a.last_completed ? new Date(a.last_completed).getTime() : -1) -
          (b.last_completed ? new Date(b.last_completed).getTime() : -1) ||
        a.full_name.localeCompare(b.full_name),
    );
    const shown = found.slice(0, SHOWN);
    const rows: Row[] = shown.map((r) => ({
      repositoryId: r.id,
      repository: r.full_name,
      lastCompletedUtc: r.last_completed ? new Date(r.last_completed).toISOString() : null,
    }));
    const window = p.days === null ? 'ever' : `in the last ${plural(p.days, 'day')}`;
    const text = `${plural(found.length, 'repository', 'repositories')} ${found.length === 1 ? 'has' : 'have'} no completed scan ${window}${
      rows.length
        ? `: ${listed(rows.map((r) => `${r.repository} (${r.lastCompletedUtc ? `last ${String(r.lastCompletedUtc).slice(0, 10)}` : 'never'})`))}`
        : ''
    }.`;
    return answer(
      text,
      rows,
      shown.map((r) => cite.repository(r.id)),
    );
  },
});
