import { type Kysely, sql } from 'kysely';
import { Type } from 'typebox';
import type { DB } from '../../../db/schema';
import { cite, uniqueCitations } from '../citations';
import { answer, defineIntent, type Row } from '../intent';
import { listed, plural } from '../resolve';
import { withRepository } from './shared';

/**
 * Inventory questions: repositories by criticality, dependencies per repository, unresolved
 * exposures counted by ecosystem, by repository and by package, a repository's scans, alert
 * rules. Every read is the tenant's own rows in the request's tenant-scoped transaction.
 */

const SHOWN = 50;
const UNRESOLVED = ['open', 'investigating', 'affected', 'accepted_risk'] as const;
const Criticality = Type.Union([
  Type.Literal('low'),
  Type.Literal('medium'),
  Type.Literal('high'),
  Type.Literal('critical'),
]);
const CRITICALITY = /\b(low|medium|high|critical)\b/;

export const repositoriesByCriticality = defineIntent({
  name: 'repositories.by_criticality',
  summary: 'Repositories by business criticality, or those of one criticality',
  parameters: Type.Object({ criticality: Type.Union([Criticality, Type.Null()]) }),
  examples: ['Which repositories are business critical?', 'List repositories by criticality'],
  cues: [
    { pattern: /\b(?:repos?|repositor(?:y|ies)|projects?|services?)\b/, weight: 2 },
    { pattern: /\bcriticality\b|\bbusiness[- ]critical\b|\bmission[- ]critical\b/, weight: 4 },
    {
      pattern: /\b(?:repos?|repositories|projects|services) (?:are|is) (?:\w+ )?critical\b/,
      weight: 3,
    },
  ],
  refuses: 'vulnerabilityId',
  extract: (q) => {
    const named = CRITICALITY.exec(q.normalised.replace(/\bbusiness[- ]critical/, 'critical'));
    const word = /\bby criticality\b/.test(q.normalised) ? null : (named?.[1] ?? null);
    return { criticality: word as 'low' | 'medium' | 'high' | 'critical' | null };
  },
  run: async ({ db }, p) => {
    const found = await db
      .selectFrom('repositories')
      .select(['id', 'full_name', 'business_criticality'])
      .$if(p.criticality !== null, (q) => q.where('business_criticality', '=', p.criticality))
      .orderBy(
        sql`case business_criticality when 'critical' then 0 when 'high' then 1 when 'medium' then 2 when 'low' then 3 else 4 end`,
      )
      .orderBy('full_name')
      .limit(SHOWN)
      .execute();
    const rows: Row[] = found.map((r) => ({
      repositoryId: r.id,
      repository: r.full_name,
      criticality: r.business_criticality,
    }));
    const which = p.criticality ? ` of ${p.criticality} criticality` : '';
    const text = `${plural(rows.length, 'repository', 'repositories')}${which}${rows.length ? `: ${listed(rows.map((r) => `${r.repository} (${r.criticality ?? 'unset'})`))}` : ''}.`;
    return answer(
      text,
      rows,
      found.map((r) => cite.repository(r.id)),
    );
  },
});

export const dependencyCounts = defineIntent({
  name: 'repositories.dependency_counts',
  summary: 'How many dependencies each repository has (direct and in all), largest first',
  parameters: Type.Object({}),
  examples: ['How many dependencies does each repository have?', 'Dependency count per repository'],
  cues: [
    { pattern: /\bdependenc(?:y|ies)\b|\bdeps\b|\bpackages\b/, weight: 2 },
    {
      pattern:
        /\b(?:each|every|per|by) (?:repo|repository|project)\b|\bwhich (?:repo|repository|project) has the most\b/,
      weight: 4,
    },
  ],

  extract: () => ({}),
  run: async ({ db }) => {
    const found = await db
      .selectFrom('repositories as r')
      .leftJoin('repository_dependencies as d', (join) =>
        join.onRef('d.repository_id', '=', 'r.id').onRef('d.scan_id', '=', 'r.dependency_scan_id'),
      )
      .select((eb) => [
        'r.id',
        'r.full_name',
        eb.fn.count<string>('d.id').as('total'),
        eb.fn.count<string>('d.id').filterWhere('d.direct', '=', true).as('direct'),
      ])
      .groupBy(['r.id', 'r.full_name'])
      .orderBy('total', 'desc')
      .orderBy('r.full_name')
      .limit(SHOWN)
      .execute();
    const rows: Row[] = found.map((r) => ({
      repositoryId: r.id,
      repository: r.full_name,
      dependencies: Number(r.total),
      direct: Number(r.direct),
    }));
    const text = rows.length
      ? `Dependencies per repository: ${listed(rows.map((r) => `${r.repository} ${r.dependencies}`))}.`
      : 'You have no repositories yet.';
    return answer(
      text,
      rows,
      found.map((r) => cite.repository(r.id)),
    );
  },
});

type GroupKey = 'ecosystem' | 'repository' | 'package';

async function unresolvedGroups(db: Kysely<DB>, by: GroupKey, limit: number) {
  const base = db
    .selectFrom('vulnerability_exposures as e')
    .innerJoin('repositories as r', 'r.id', 'e.repository_id')
    .where('e.status', 'in', [...UNRESOLVED]);
  if (by === 'ecosystem') {
    const rows = await base
      .select((eb) => ['e.ecosystem as key', eb.fn.countAll<string>().as('n')])
      .groupBy('e.ecosystem')
      .orderBy('n', 'desc')
      .orderBy('e.ecosystem')
      .limit(limit)
      .execute();
    return rows.map((r) => ({ key: r.key, id: null, n: Number(r.n) }));
  }
  if (by === 'repository') {
    const rows = await base
      .select((eb) => ['r.id as id', 'r.full_name as key', eb.fn.countAll<string>().as('n')])
      .groupBy(['r.id', 'r.full_name'])
      .orderBy('n', 'desc')
      .orderBy('r.full_name')
      .limit(limit)
      .execute();
    return rows.map((r) => ({ key: r.key, id: r.id, n: Number(r.n) }));
  }
  const rows = await base
    .select((eb) => [
      'e.package_id as id',
      sql<string>`e.package_name || ' (' || e.ecosystem || ')'`.as('key'),
      eb.fn.countAll<string>().as('n'),
      eb.fn.count<string>('e.repository_id').distinct().as('repositories'),
    ])
    .groupBy(['e.package_id', 'e.package_name', 'e.ecosystem'])
    .orderBy('n', 'desc')
    .orderBy('e.package_name')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ key: r.key, id: r.id, n: Number(r.n) }));
}

export const exposuresByEcosystem = defineIntent({
  name: 'counts.exposures_by_ecosystem',
  summary: 'Unresolved exposures counted per ecosystem',
  parameters: Type.Object({}),
  examples: [
    'How many vulnerabilities do we have per ecosystem?',
    'Break down exposures by ecosystem',
  ],
  cues: [
    {
      pattern: /\b(?:vulnerabilit(?:y|ies)|vulns?|exposures?|findings?|cves?|advisories)\b/,
      weight: 2,
    },
    {
      pattern:
        /\b(?:per|by|each|across) (?:ecosystem|language|package manager)s?\b|\bwhich ecosystem\b/,
      weight: 5,
    },
  ],
  extract: () => ({}),
  run: async ({ db }) => {
    const groups = await unresolvedGroups(db, 'ecosystem', SHOWN);
    const rows: Row[] = groups.map((g) => ({ ecosystem: g.key, unresolvedExposures: g.n }));
    const text = rows.length
      ? `Unresolved exposures by ecosystem: ${listed(
          groups.map((g) => `${g.key} ${g.n}`),
          10,
        )}.`
      : 'You have no unresolved exposures.';
    return answer(text, rows, []);
  },
});

export const exposuresByRepository = defineIntent({
  name: 'exposures.by_repository',
  summary: 'Unresolved exposures counted per repository, most first',
  parameters: Type.Object({ limit: Type.Integer({ minimum: 1, maximum: 100 }) }),
  examples: ['Which repositories have the most vulnerabilities?', 'Count exposures per repository'],
  cues: [
    { pattern: /\b(?:vulnerabilit(?:y|ies)|vulns?|exposures?|findings?|cves?)\b/, weight: 2 },
    {
      pattern:
        /\b(?:per|by|each) (?:repo|repository|project)\b|\b(?:repos?|repositories|projects) (?:have|has|with) the most\b/,
      weight: 3,
    },
    {
      pattern:
        /\bmost vulnerable (?:repos?|repositories|projects)\b|\b(?:repos?|repositories|projects) by (?:findings|vulnerabilities|vulns|exposures|cves)\b/,
      weight: 5,
    },
  ],
  refuses: 'vulnerabilityId',
  extract: (q) => ({ limit: q.limit ?? 10 }),
  run: async ({ db }, p) => {
    const groups = await unresolvedGroups(db, 'repository', p.limit);
    const rows: Row[] = groups.map((g) => ({
      repositoryId: g.id,
      repository: g.key,
      unresolvedExposures: g.n,
    }));
    const text = rows.length
      ? `Unresolved exposures per repository: ${listed(
          groups.map((g) => `${g.key} ${g.n}`),
          10,
        )}.`
      : 'No repository has an unresolved exposure.';
    return answer(
      text,
      rows,
      groups.map((g) => cite.repository(g.id ?? '')),
    );
  },
});

export const mostVulnerablePackages = defineIntent({
  name: 'packages.most_vulnerable',
  summary: 'The packages with the most unresolved exposures',
  parameters: Type.Object({ limit: Type.Integer({ minimum: 1, maximum: 100 }) }),
  examples: ['Which packages have the most vulnerabilities?', 'Top 5 vulnerable packages'],
  cues: [
    { pattern: /\b(?:packages?|libraries|librar(?:y|ies)|dependenc(?:y|ies)|deps)\b/, weight: 2 },
    {
      pattern:
        /\bmost vulnerable\b|\bthe most (?:vulnerabilities|vulns|exposures|findings|cves)\b|\btop (?:\d+ )?vulnerable\b|\b(?:per|by) package\b/,
      weight: 5,
    },
  ],
  refuses: 'package',
  extract: (q) => ({ limit: q.limit ?? 10 }),
  run: async ({ db }, p) => {
    const groups = await unresolvedGroups(db, 'package', p.limit);
    const rows: Row[] = groups.map((g) => ({
      packageId: g.id,
      package: g.key,
      unresolvedExposures: g.n,
    }));
    const text = rows.length
      ? `Packages with the most unresolved exposures: ${listed(
          groups.map((g) => `${g.key} ${g.n}`),
          10,
        )}.`
      : 'No package has an unresolved exposure.';
    return answer(text, rows, uniqueCitations(groups.map((g) => cite.package(g.id ?? ''))));
  },
});

async function latestScans(db: Kysely<DB>, repositoryId: string | null) {
  return db
    .selectFrom('scans as s')
    .innerJoin('repositories as r', 'r.id', 's.repository_id')
    .select(['s.id', 's.repository_id', 'r.full_name', 's.state', 's.queued_at', 's.finished_at'])
    .$if(repositoryId !== null, (q) => q.where('s.repository_id', '=', repositoryId ?? ''))
    .orderBy('s.queued_at', 'desc')
    .limit(repositoryId ? 10 : 1000)
    .execute();
}

type ScanRow = Awaited<ReturnType<typeof latestScans>>[number];

const scanRow = (repositoryId: string, repository: string, s: ScanRow | undefined): Row => ({
  scanId: s?.id ?? null,
  repositoryId,
  repository,
  state: s?.state ?? null,
  queuedUtc: s ? s.queued_at.toISOString() : null,
  finishedUtc: s?.finished_at ? s.finished_at.toISOString() : null,
});

/** Every repository with its latest scan (none: never scanned through the scan queue). */
async function everyRepositoryScan(db: Kysely<DB>) {
  const repositories = await db
    .selectFrom('repositories')
    .select(['id', 'full_name'])
    .orderBy('full_name')
    .limit(SHOWN)
    .execute();
  const scans = await latestScans(db, null);
  const latest = new Map<string, ScanRow>();
  for (const s of scans) if (!latest.has(s.repository_id)) latest.set(s.repository_id, s);
  const rows = repositories.map((r) => scanRow(r.id, r.full_name, latest.get(r.id)));
  const text = `The latest scan of each repository: ${listed(
    rows.map((r) => `${r.repository} ${r.state ?? 'none'}`),
  )}.`;
  return answer(
    text,
    rows,
    uniqueCitations([
      ...[...latest.values()].map((s) => cite.scan(s.id)),
      ...repositories.map((r) => cite.repository(r.id)),
    ]),
  );
}

export const repositoryScans = defineIntent({
  name: 'scans.of_repository',
  summary: "A repository's recent scans, or the latest scan of every repository",
  parameters: Type.Object({
    repository: Type.Union([Type.String({ maxLength: 300 }), Type.Null()]),
  }),
  examples: ['Show the scans of repository web', 'When was each repository last scanned?'],
  cues: [
    { pattern: /\bscans?\b|\bscanned\b/, weight: 3 },
    { pattern: /\b(?:last|latest|recent|when|history|list|show|of)\b/, weight: 2 },
    { pattern: /\bscan history\b|\bscans of\b|\blast scanned\b|\blatest scans?\b/, weight: 2 },
  ],
  extract: (q) => ({ repository: q.repository }),
  run: (context, p) =>
    withRepository(
      context,
      p.repository,
      (name) => `Show the scans of repository ${name}`,
      async (repository) => {
        if (!repository) return everyRepositoryScan(context.db);
        const found = await latestScans(context.db, repository.repositoryId);
        const rows = found.map((s) => scanRow(s.repository_id, s.full_name, s));
        const text = `${repository.fullName} has ${plural(rows.length, 'scan')}${found[0] ? `; the latest is ${found[0].state}` : ''}.`;
        return answer(
          text,
          rows,
          uniqueCitations([
            ...found.map((s) => cite.scan(s.id)),
            cite.repository(repository.repositoryId),
          ]),
        );
      },
    ),
});

export const alertRules = defineIntent({
  name: 'alerts.rules',
  feature: 'alert_rules',
  summary: 'The alert rules configured, enabled or not',
  parameters: Type.Object({ enabledOnly: Type.Boolean() }),
  examples: ['Which alert rules do we have?', 'List the enabled alert rules'],
  cues: [{ pattern: /\balert(?:ing)? rules?\b|\balerts? (?:configured|set up)\b/, weight: 6 }],
  extract: (q) => ({ enabledOnly: /\b(?:enabled|active)\b/.test(q.normalised) }),
  run: async ({ db }, p) => {
    const found = await db
      .selectFrom('alert_rules')
      .select(['id', 'name', 'kind', 'enabled', 'min_severity'])
      .$if(p.enabledOnly, (q) => q.where('enabled', '=', true))
      .orderBy('name')
      .limit(SHOWN)
      .execute();
    const rows: Row[] = found.map((r) => ({
      alertRuleId: r.id,
      name: r.name,
      kind: r.kind,
      enabled: r.enabled,
      minSeverity: r.min_severity,
    }));
    const text = `${plural(rows.length, `${p.enabledOnly ? 'enabled ' : ''}alert rule`)}${rows.length ? `: ${listed(rows.map((r) => String(r.name)))}` : ''}.`;
    return answer(
      text,
      rows,
      found.map((r) => cite.alertRule(r.id)),
    );
  },
});
