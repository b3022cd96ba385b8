import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sql } from 'kysely';
import { Type } from 'typebox';
import { unavailable } from '../../core/problem';
import type { Database } from '../../db/connection';
import { listMigrations } from '../../db/migrate';
import { withErrors } from '../../http/schemas';
import { PATHS } from './index-routes';

/** What the running service says about itself (src/service.ts sets it; tests set their own). */
export interface ServiceState {
  /** `none`: this process runs no job workers (role api); otherwise whether they started. */
  workers: () => 'none' | 'starting' | 'started';
  /** True from the first moment of the orderly stop (docs/operations.md). */
  stopping: () => boolean;
}

/** A process that runs no workers and is not stopping: what an app built alone is. */
export const API_ONLY: ServiceState = { workers: () => 'none', stopping: () => false };

/** The database must answer within this bound for the service to be ready. */
export const READY_DATABASE_BOUND_MS = 2000;

export interface Readiness {
  ready: boolean;
  /** Why not, one phrase per failed check. */
  reasons: string[];
  checks: {
    database: 'ok' | 'failed';
    migrations: 'ok' | 'pending' | 'unknown';
    workers: 'none' | 'starting' | 'started';
    stopping: boolean;
  };
}

function within<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timeout')), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Ready (docs/operations.md#readiness): not stopping, the database answers within the bound,
 * every migration this build ships is applied, and the workers of a role that has them started.
 */
export async function checkReadiness(
  database: Database,
  state: ServiceState,
  expected: readonly string[] = listMigrations(),
): Promise<Readiness> {
  const reasons: string[] = [];
  const stopping = state.stopping();
  if (stopping) reasons.push('the service is stopping');
  let applied: Set<string> | null = null;
  try {
    const { rows } = await within(
      sql<{ name: string }>`SELECT name FROM schema_migrations`.execute(database.system),
      READY_DATABASE_BOUND_MS,
    );
    applied = new Set(rows.map((row) => row.name));
  } catch {
    reasons.push(`the database did not answer within ${READY_DATABASE_BOUND_MS} ms`);
  }
  const pending = applied ? expected.filter((name) => !applied.has(name)) : [];
  if (pending.length > 0) reasons.push(`${pending.length} migrations are not applied`);
  const workers = state.workers();
  if (workers === 'starting') reasons.push('the job workers have not started');
  return {
    ready: reasons.length === 0,
    reasons,
    checks: {
      database: applied ? 'ok' : 'failed',
      migrations: !applied ? 'unknown' : pending.length > 0 ? 'pending' : 'ok',
      workers,
      stopping,
    },
  };
}

const Ready = Type.Object({
  status: Type.Literal('ready'),
  checks: Type.Object({
    database: Type.Literal('ok'),
    migrations: Type.Literal('ok'),
    workers: Type.Union([Type.Literal('none'), Type.Literal('started')], {
      description: 'none: this process runs no job workers (role api)',
    }),
    stopping: Type.Literal(false),
  }),
});

/** GET /api/v1/ready, beside the liveness check (docs/operations.md#readiness). */
export function readinessRoutes(
  database: Database,
  state: ServiceState,
): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      PATHS.ready,
      {
        schema: {
          tags: ['System'],
          summary:
            'Readiness: 200 when migrations are applied, the database answers, workers run and the service is not stopping; 503 otherwise',
          response: withErrors({ 200: Ready }, [503], { authenticated: false }),
        },
        config: { auth: false },
      },
      async () => {
        const { ready, reasons, checks } = await checkReadiness(database, state);
        // Ready implies the database and migrations are ok and the service is not stopping.
        if (!ready || checks.workers === 'starting') {
          throw unavailable(`Not ready: ${reasons.join('; ')}.`);
        }
        return {
          status: 'ready' as const,
          checks: {
            database: 'ok' as const,
            migrations: 'ok' as const,
            workers: checks.workers,
            stopping: false as const,
          },
        };
      },
    );
  };
}
