import { type Kysely, type Selectable, sql } from 'kysely';
import { badRequest, notFound } from '../../core/problem';
import type { DB } from '../../db/schema';
import type { Ecosystem } from '../../ecosystems/names';
import { ALL_REPOSITORIES, utcDay } from './rollups';
import type { AnalyticsDailyTable, FixesBySeverity } from './tables';

export const TREND_INTERVALS = ['day', 'week', 'month'] as const;
export type TrendInterval = (typeof TREND_INTERVALS)[number];
export const MAX_TREND_POINTS = 1000;
const SEVERITIES = ['critical', 'high', 'medium', 'low', 'unrated'] as const;
const DAY_MS = 86_400_000;

export interface TrendQuery {
  from: Date;
  to: Date;
  interval: TrendInterval;
  repositoryId: string | undefined;
  ecosystem: Ecosystem | undefined;
}

/** One stored day of the rollup, the columns a trend reads. */
type DayRow = Pick<
  Selectable<AnalyticsDailyTable>,
  | 'day'
  | 'dependencies'
  | 'libyear'
  | 'exposures_unresolved'
  | 'exposures_critical'
  | 'exposures_high'
  | 'exposures_medium'
  | 'exposures_low'
  | 'violations_open'
  | 'exposures_opened'
  | 'exposures_fixed'
  | 'fixes'
  | 'scans'
>;

/** The first day (UTC, YYYY-MM-DD) of the bucket holding `day`; weeks start on Monday. */
export function bucketStart(day: string, interval: TrendInterval): string {
  if (interval === 'day') return day;
  if (interval === 'month') return `${day.slice(0, 7)}-01`;
  const date = new Date(`${day}T00:00:00Z`);
  const sinceMonday = (date.getUTCDay() + 6) % 7;
  return utcDay(new Date(date.getTime() - sinceMonday * DAY_MS));
}

function nextBucket(start: string, interval: TrendInterval): string {
  const date = new Date(`${start}T00:00:00Z`);
  if (interval === 'day') return utcDay(new Date(date.getTime() + DAY_MS));
  if (interval === 'week') return utcDay(new Date(date.getTime() + 7 * DAY_MS));
  return utcDay(new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1)));
}

export function bucketsOf(from: Date, to: Date, interval: TrendInterval): string[] {
  const last = utcDay(to);
  const buckets: string[] = [];
  for (
    let start = bucketStart(utcDay(from), interval);
    start <= last;
    start = nextBucket(start, interval)
  ) {
    buckets.push(start);
    if (buckets.length > MAX_TREND_POINTS) {
      throw badRequest(`The window holds more than ${MAX_TREND_POINTS} ${interval}s.`, {
        fromUtc: [
          `at most ${MAX_TREND_POINTS} points per request; narrow the window or widen the interval`,
        ],
      });
    }
  }
  return buckets;
}

async function dayRows(db: Kysely<DB>, query: TrendQuery, firstDay: string, lastDay: string) {
  const scope = db
    .selectFrom('analytics_daily')
    .select([
      sql<string>`day::text`.as('day'),
      'dependencies',
      'libyear',
      'exposures_unresolved',
      'exposures_critical',
      'exposures_high',
      'exposures_medium',
      'exposures_low',
      'violations_open',
      'exposures_opened',
      'exposures_fixed',
      'fixes',
      'scans',
    ])
    .where('repository_id', '=', query.repositoryId ?? ALL_REPOSITORIES)
    .where('ecosystem', '=', query.ecosystem ?? '');
  // The gauges carry forward: the last row before the window seeds the first bucket.
  const before = await scope.where('day', '<', firstDay).orderBy('day', 'desc').limit(1).execute();
  const within = await scope
    .where('day', '>=', firstDay)
    .where('day', '<=', lastDay)
    .orderBy('day')
    .execute();
  return [...before, ...within] as DayRow[];
}

/** GET /api/v1/analytics/trends: one point per bucket, from the daily rollups. */
export async function trends(db: Kysely<DB>, query: TrendQuery) {
  if (query.repositoryId) {
    const found = await db
      .selectFrom('repositories')
      .select('id')
      .where('id', '=', query.repositoryId)
      .executeTakeFirst();
    if (!found) throw notFound('The repository');
  }
  const buckets = bucketsOf(query.from, query.to, query.interval);
  const lastDay = utcDay(query.to);
  const rows = await dayRows(db, query, buckets[0] ?? utcDay(query.from), lastDay);
  let cursor = 0;
  let gauge: DayRow | null = null;
  const points = buckets.map((start, index) => {
    const end = buckets[index + 1] ?? nextBucket(start, query.interval);
    const flows = { opened: 0, fixed: 0, scans: 0, fixes: {} as FixesBySeverity };
    for (; cursor < rows.length && (rows[cursor]?.day ?? '') < end; cursor++) {
      const row = rows[cursor] as DayRow;
      gauge = row;
      if (row.day < start) continue;
      flows.opened += row.exposures_opened;
      flows.fixed += row.exposures_fixed;
      flows.scans += row.scans;
      for (const [severity, fix] of Object.entries(row.fixes)) {
        const sum = flows.fixes[severity] ?? { count: 0, seconds: 0 };
        flows.fixes[severity] = {
          count: sum.count + fix.count,
          seconds: sum.seconds + fix.seconds,
        };
      }
    }
    return presentPoint(start, flows, gauge);
  });
  return {
    fromUtc: query.from.toISOString(),
    toUtc: query.to.toISOString(),
    interval: query.interval,
    repositoryId: query.repositoryId ?? null,
    ecosystem: query.ecosystem ?? null,
    points,
  };
}

/** Unresolved exposures per severity; null before the split was recorded (migration 0060). */
function bySeverity(gauge: DayRow | null) {
  if (!gauge || gauge.exposures_high === null) return null;
  return {
    critical: gauge.exposures_critical,
    high: gauge.exposures_high,
    medium: gauge.exposures_medium ?? 0,
    low: gauge.exposures_low ?? 0,
  };
}

function presentPoint(
  start: string,
  flows: { opened: number; fixed: number; scans: number; fixes: FixesBySeverity },
  gauge: DayRow | null,
) {
  const meanTimeToFixSeconds: Record<string, number | null> = {};
  for (const severity of SEVERITIES) {
    const fix = flows.fixes[severity];
    meanTimeToFixSeconds[severity] =
      fix && fix.count > 0 ? Math.round(fix.seconds / fix.count) : null;
  }
  return {
    bucketStartUtc: `${start}T00:00:00.000Z`,
    exposuresOpened: flows.opened,
    exposuresFixed: flows.fixed,
    exposuresOpen: gauge ? gauge.exposures_unresolved : null,
    exposuresCriticalOpen: gauge ? gauge.exposures_critical : null,
    exposuresOpenBySeverity: bySeverity(gauge),
    meanTimeToFixSeconds,
    libyear: gauge ? gauge.libyear : null,
    violationsOpen: gauge ? gauge.violations_open : null,
    dependencies: gauge ? gauge.dependencies : null,
    scans: flows.scans,
  };
}
