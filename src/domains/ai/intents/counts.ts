import { sql } from 'kysely';
import { Type } from 'typebox';
import { answer, defineIntent, PeriodParameter, periodOrLast, type Row } from '../intent';
import { plural } from '../resolve';

/** Counts and trends over a period. */

export const trends = defineIntent({
  name: 'counts.trend',
  summary:
    'Exposures opened and fixed per day, week or month over a period (default: the last 12 weeks)',
  parameters: Type.Object({
    interval: Type.Union([Type.Literal('day'), Type.Literal('week'), Type.Literal('month')]),
    period: PeriodParameter,
  }),
  examples: [
    'Show the trend of exposures per week',
    'How many vulnerabilities were opened and fixed per month this year?',
  ],
  cues: [
    {
      pattern:
        /\b(?:trends?|trending|over time|per (?:day|week|month)|each (?:day|week|month)|weekly|monthly|daily|history|evolution|timeline|chart)\b/,
      weight: 5,
    },
    { pattern: /\b(?:exposures?|vulnerabilit(?:y|ies)|findings?|opened|fixed)\b/, weight: 1 },
  ],
  extract: (q) => {
    const text = q.normalised;
    const interval = /\b(?:per day|each day|daily)\b/.test(text)
      ? 'day'
      : /\b(?:per month|each month|monthly)\b/.test(text)
        ? 'month'
        : 'week';
    return { interval, period: periodOrLast(q, 84) } as const;
  },
  run: async ({ db, timeZone }, p) => {
    const period = p.period ?? {
      fromUtc: new Date(0).toISOString(),
      toUtc: new Date().toISOString(),
      label: 'ever',
    };
    const from = new Date(period.fromUtc);
    const to = new Date(period.toUtc);
    const bucket = (column: string) =>
      sql<string>`to_char(date_trunc(${p.interval}, ${sql.ref(column)} AT TIME ZONE ${timeZone}), 'YYYY-MM-DD')`;
    const opened = await db
      .selectFrom('vulnerability_exposures as e')
      .select([bucket('e.first_seen_at').as('bucket')])
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('e.first_seen_at', '>=', from)
      .where('e.first_seen_at', '<', to)
      .groupBy('bucket')
      .execute();
    const fixed = await db
      .selectFrom('vulnerability_exposures as e')
      .select([bucket('e.fixed_at').as('bucket')])
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('e.fixed_at', '>=', from)
      .where('e.fixed_at', '<', to)
      .groupBy('bucket')
      .execute();
    const buckets = new Map<string, { opened: number; fixed: number }>();
    for (const r of opened) buckets.set(r.bucket, { opened: Number(r.n), fixed: 0 });
    for (const r of fixed)
      buckets.set(r.bucket, { opened: buckets.get(r.bucket)?.opened ?? 0, fixed: Number(r.n) });
    const rows: Row[] = [...buckets]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([start, c]) => ({ [`${p.interval}Start`]: start, opened: c.opened, fixed: c.fixed }));
    const totalOpened = opened.reduce((s, r) => s + Number(r.n), 0);
    const totalFixed = fixed.reduce((s, r) => s + Number(r.n), 0);
    const text = `${period.label}: ${plural(totalOpened, 'exposure')} opened and ${totalFixed} fixed, in ${plural(rows.length, p.interval)} with activity (net ${totalOpened - totalFixed >= 0 ? '+' : ''}${totalOpened - totalFixed}).`;
    return answer(text, rows, []);
  },
});

export const inventory = defineIntent({
  name: 'counts.inventory',
  summary: 'How many repositories, dependencies, packages and unresolved exposures you have',
  parameters: Type.Object({}),
  examples: ['How many repositories do we have?', 'Give me an overview of our inventory'],
  cues: [
    {
      pattern:
        /\b(?:how many|count|number of|total|overview|inventory|summary|summarise|summarize|stats|statistics)\b/,
      weight: 2,
    },
    {
      pattern:
        /\b(?:repos?|repositories|projects|packages|dependenc(?:y|ies)|deps|everything|inventory|overview)\b/,
      weight: 2,
    },
  ],
  refuses: 'package',
  extract: () => ({}),
  run: async ({ db }) => {
    const repositories = await db
      .selectFrom('repositories')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    const dependencies = await db
      .selectFrom('repository_dependencies')
      .select((eb) => [
        eb.fn.countAll<string>().as('n'),
        eb.fn.count<string>('package_id').distinct().as('packages'),
      ])
      .executeTakeFirstOrThrow();
    const exposures = await db
      .selectFrom('vulnerability_exposures')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('status', 'in', ['open', 'investigating', 'affected', 'accepted_risk'])
      .executeTakeFirstOrThrow();
    const row = {
      repositories: Number(repositories.n),
      dependencies: Number(dependencies.n),
      packages: Number(dependencies.packages),
      unresolvedExposures: Number(exposures.n),
    };
    const text = `You have ${plural(row.repositories, 'repository', 'repositories')} with ${plural(row.dependencies, 'dependency', 'dependencies')} on ${plural(row.packages, 'package')}, and ${plural(row.unresolvedExposures, 'unresolved exposure')}.`;
    return answer(text, [row], []);
  },
});
