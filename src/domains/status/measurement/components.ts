import { type Kysely, sql } from 'kysely';
import { iso } from '../../../core/iso-time';
import type { Database } from '../../../db/connection';
import type { DB } from '../../../db/schema';
import type { Notifier } from '../subscriptions/notify';
import {
  COMPONENTS,
  type ComponentId,
  type ComponentState,
  type IncidentImpact,
  type MeasuredState,
  type OverrideState,
} from '../tables';
import { readAll } from './measurements';
import type { ResponseWindow } from './response-window';

/** Consecutive evaluations that must agree before a component changes (docs/status.md). */
export const HYSTERESIS = { worse: 2, better: 3 } as const;
/** How often the status evaluator measures (jobs.ts), so nobody has to read for it to happen. */
export const EVALUATION_INTERVAL_MS = 30_000;
/**
 * A read evaluates only when the stored states are older than this: the evaluator keeps them
 * fresh, and a reader measures only where none runs (a test app, a process that just started).
 */
export const READ_STALE_MS = 3 * EVALUATION_INTERVAL_MS;

export const COMPONENT_NAMES: Record<ComponentId, string> = {
  api: 'API',
  database: 'Database',
  'job-workers': 'Job workers',
  'vulnerability-data': 'Vulnerability data',
  'registry-metadata': 'Registry metadata',
  'source-control-ingest': 'Source-control ingest',
};

const SEVERITY: Record<ComponentState, number> = {
  unknown: 0,
  operational: 1,
  maintenance: 2,
  degraded: 3,
  outage: 4,
};

interface Held {
  state: MeasuredState;
  pendingState: MeasuredState | null;
  pendingCount: number;
}

/**
 * Hysteresis: a component moves to a new state only when that many evaluations in a row say
 * so — fewer to get worse than to recover, so one good probe does not end an outage early and
 * one slow probe does not start one. Unknown is left at once, either way.
 */
export function nextHeld(held: Held | undefined, raw: MeasuredState): Held {
  if (!held || held.state === 'unknown' || raw === 'unknown') {
    return { state: raw, pendingState: null, pendingCount: 0 };
  }
  if (raw === held.state) return { state: raw, pendingState: null, pendingCount: 0 };
  const count = held.pendingState === raw ? held.pendingCount + 1 : 1;
  const needed = SEVERITY[raw] > SEVERITY[held.state] ? HYSTERESIS.worse : HYSTERESIS.better;
  if (count >= needed) return { state: raw, pendingState: null, pendingCount: 0 };
  return { state: held.state, pendingState: raw, pendingCount: count };
}

/**
 * Measures every component and stores the states after hysteresis. Runs under a transaction
 * lock so two readers evaluating at once count one evaluation, not two.
 */
export async function evaluateComponents(
  database: Database,
  window: ResponseWindow,
  options: { force?: boolean; now?: number; notify?: Notifier | null; maxAgeMs?: number } = {},
): Promise<void> {
  const now = options.now ?? Date.now();
  // A little under the interval, so an evaluator's tick never finds its own last one fresh.
  const maxAge = options.maxAgeMs ?? EVALUATION_INTERVAL_MS - 1000;
  const isFresh = (rows: { evaluated_at: Date }[]) =>
    !options.force &&
    rows.length === COMPONENTS.length &&
    rows.every((row) => now - row.evaluated_at.getTime() < maxAge);
  if (
    isFresh(await database.system.selectFrom('status_components').select('evaluated_at').execute())
  ) {
    return;
  }
  // Measured with no transaction held (the embedded database has one connection).
  const readings = await readAll(database, window, now);
  await database.system.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(hashtext('driftwatch.status.evaluate'))`.execute(trx);
    const stored = await trx.selectFrom('status_components').selectAll().execute();
    if (isFresh(stored)) return;
    for (const component of COMPONENTS) {
      const row = stored.find((candidate) => candidate.component === component);
      const reading = readings[component];
      const held = nextHeld(
        row && {
          state: row.measured_state,
          pendingState: row.pending_state,
          pendingCount: row.pending_count,
        },
        reading.state,
      );
      const values = {
        measured_state: held.state,
        raw_state: reading.state,
        pending_state: held.pendingState,
        pending_count: held.pendingCount,
        measurement: JSON.stringify(reading.measurement) as unknown as Record<string, unknown>,
        detail: reading.detail,
        evaluated_at: new Date(now),
      };
      const changed = !row || row.measured_state !== held.state;
      await trx
        .insertInto('status_components')
        .values({ component, ...values, changed_at: new Date(now) })
        .onConflict((oc) =>
          oc
            .column('component')
            .doUpdateSet(changed ? { ...values, changed_at: new Date(now) } : values),
        )
        .execute();
      if (changed && row && options.notify) {
        const override = activeOverride(row, now);
        await announce(trx, options.notify, component, {
          before: override ?? row.measured_state,
          after: override ?? held.state,
          detail: reading.detail,
        });
      }
    }
  });
}

type StoredComponent = {
  override_state: OverrideState | null;
  override_until: Date | null;
  measured_state: MeasuredState;
  detail: string;
};

const activeOverride = (row: StoredComponent, now: number) =>
  row.override_state && (!row.override_until || row.override_until.getTime() > now)
    ? row.override_state
    : null;

/** Tells subscribers of a state people see change (leaving or entering `unknown` aside). */
async function announce(
  trx: Kysely<DB>,
  notify: Notifier,
  component: ComponentId,
  change: { before: ComponentState; after: ComponentState; detail: string },
): Promise<void> {
  if (change.before === change.after) return;
  if (change.before === 'unknown' || change.after === 'unknown') return;
  await notify(trx, {
    type: 'status.component.changed',
    component: {
      componentId: component,
      name: COMPONENT_NAMES[component],
      state: change.after,
      previousState: change.before,
      detail: change.detail,
    },
  });
}

export interface ComponentView {
  componentId: ComponentId;
  name: string;
  state: ComponentState;
  measuredState: MeasuredState;
  detail: string;
  overridden: boolean;
  overrideReason: string | null;
  overrideUntilUtc: string | null;
  changedAtUtc: string;
  evaluatedAtUtc: string;
}

/** The stored states, an operator's unexpired override taking precedence over the measurement. */
export async function listComponents(
  database: Database,
  now = Date.now(),
): Promise<ComponentView[]> {
  const rows = await database.system.selectFrom('status_components').selectAll().execute();
  return COMPONENTS.flatMap((component) => {
    const row = rows.find((candidate) => candidate.component === component);
    if (!row) return [];
    const override = activeOverride(row, now);
    return [
      {
        componentId: component,
        name: COMPONENT_NAMES[component],
        state: override ?? row.measured_state,
        // The measurement itself: `state` is what agreeing evaluations (or an override) say.
        measuredState: row.raw_state ?? row.measured_state,
        detail: row.detail,
        overridden: override !== null,
        overrideReason: override ? row.override_reason : null,
        overrideUntilUtc: override ? iso(row.override_until) : null,
        changedAtUtc: row.changed_at.toISOString(),
        evaluatedAtUtc: row.evaluated_at.toISOString(),
      },
    ];
  });
}

/** What an open incident declares, by its impact (docs/status.md#components). */
export const IMPACT_STATE: Record<IncidentImpact, ComponentState> = {
  maintenance: 'maintenance',
  minor: 'degraded',
  major: 'outage',
  critical: 'outage',
};

/**
 * The worst of the components' known states and of what the open incidents declare: an
 * operator's critical incident is not "All systems operational" while every probe passes.
 * Unknown components do not count.
 */
export function overallState(
  components: { state: ComponentState }[],
  openIncidents: { impact: IncidentImpact }[] = [],
): ComponentState {
  const states = [
    ...components.map((component) => component.state),
    ...openIncidents.map((incident) => IMPACT_STATE[incident.impact]),
  ].filter((state) => state !== 'unknown');
  if (states.length === 0) return 'unknown';
  return states.reduce<ComponentState>(
    (worst, state) => (SEVERITY[state] > SEVERITY[worst] ? state : worst),
    'operational',
  );
}

export async function setOverride(
  database: Database,
  window: ResponseWindow,
  component: ComponentId,
  override: { state: OverrideState; reason: string; until: Date | null } | null,
  notify: Notifier | null = null,
): Promise<void> {
  await evaluateComponents(database, window, { notify });
  await database.system.transaction().execute(async (trx) => {
    const before = await trx
      .selectFrom('status_components')
      .selectAll()
      .where('component', '=', component)
      .forUpdate()
      .executeTakeFirst();
    const after = await trx
      .updateTable('status_components')
      .set({
        override_state: override?.state ?? null,
        override_reason: override?.reason ?? null,
        override_until: override?.until ?? null,
      })
      .where('component', '=', component)
      .returningAll()
      .executeTakeFirst();
    if (!before || !after || !notify) return;
    const now = Date.now();
    await announce(trx, notify, component, {
      before: activeOverride(before, now) ?? before.measured_state,
      after: activeOverride(after, now) ?? after.measured_state,
      detail: override ? override.reason : after.detail,
    });
  });
}
