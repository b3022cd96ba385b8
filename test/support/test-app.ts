import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/app';
import { EVENT_SUBSCRIPTIONS, jobDefinitions } from '../../src/background-jobs';
import { type Config, loadConfig } from '../../src/config';
import type { Plan } from '../../src/core/plans';
import { type Database, openDatabase } from '../../src/db/connection';
import { migrate } from '../../src/db/migrate';
import {
  createTokenUsageTracker,
  type TokenUsageTracker,
} from '../../src/domains/api-tokens/usage-tracker';
import type { JobDeps } from '../../src/domains/job-deps';
import { readBuildInfo, readCliVersion } from '../../src/domains/system/build-info';
import type { ServiceState } from '../../src/domains/system/readiness';
import { createTenantWithOwner } from '../../src/domains/tenants/service';
import { createRateLimitStore } from '../../src/http/rate-limit';
import { takeOutbox } from '../../src/jobs/outbox';
import { type JobEnvelope, startsJob } from '../../src/jobs/queue';
import type { Metrics } from '../../src/observability/metrics';
import { createSecretBox, type SecretBox } from '../../src/security/secret-box';
import { TEST_REPOSITORY_ROOT } from './git-fixtures';
import { provided } from './provided';
import { createScratchDatabase } from './service-process';
import { refuseInUnitTier } from './test-tiers';

/**
 * A fresh database for one test file: PGlite in memory by default, or a new database on the
 * server named by TEST_DATABASE_URL (created here, dropped on close).
 */
export async function openTestDatabase(poolSize = 10): Promise<Database> {
  refuseInUnitTier('opened a test database');
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const snapshotPath = provided('embeddedSnapshotPath');
    const embeddedSnapshot = snapshotPath ? new Blob([readFileSync(snapshotPath)]) : undefined;
    const database = await openDatabase({ url: null, dataDir: null, poolSize, embeddedSnapshot });
    // A no-op on the snapshot (every migration recorded); the whole run outside vitest.
    await migrate(database.pool);
    return database;
  }
  const scratch = await createScratchDatabase(serverUrl, provided('postgresTemplate'));
  const database = await openDatabase({ url: scratch.url, dataDir: null, poolSize });
  await migrate(database.pool);
  return closingAlso(database, scratch.drop);
}

/** `database` whose close also runs `cleanup` (drops its scratch database, removes its files). */
export function closingAlso(database: Database, cleanup: () => Promise<void> | void): Database {
  const close = database.close;
  return {
    ...database,
    close: async () => {
      await close();
      await cleanup();
    },
  };
}

/** Settings every test app gets: loopback allowed for clones and webhooks, the fixtures' root. */
export const TEST_OUTBOUND_ENV = {
  OUTBOUND_ALLOW_GIT_CIDRS: '127.0.0.0/8,::1/128',
  OUTBOUND_ALLOW_WEBHOOK_CIDRS: '127.0.0.0/8,::1/128',
  SCAN_FILE_URL_ROOTS: TEST_REPOSITORY_ROOT,
};

export interface TestTenant {
  tenantId: string;
  token: string;
  tokenId: string;
}

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  config: Config;
  tokenUsage: TokenUsageTracker;
  secretBox: SecretBox;
  jobDeps: JobDeps;
  /**
   * Runs queued jobs inline, through the same handlers the worker registers, until the outbox is
   * empty (jobs may queue more). Returns the names of the jobs that ran, in order.
   */
  runJobs: (options?: {
    only?: string[];
    /** Sees each job as it runs (its payload), for tests that count jobs of one kind. */
    onJob?: (name: string, envelope: JobEnvelope<unknown>) => void;
  }) => Promise<string[]>;
  createTenant: (plan?: Plan, name?: string) => Promise<TestTenant>;
  /** `inject` with a bearer token. */
  as: (token: string, options: InjectOptions) => Promise<LightMyRequestResponse>;
  close: () => Promise<void>;
}

export async function createTestApp(
  overrides: Partial<Config> = {},
  options: {
    configure?: (app: FastifyInstance) => void;
    database?: Database;
    /** Request metrics, job observations and /metrics (with an operator token) on this app. */
    metrics?: Metrics;
    state?: ServiceState;
    /** A built web app to serve at / (src/http/web-app.ts); absent: / is a 503. */
    webAppDir?: string;
    /** The master key secrets are sealed with (base64, 32 bytes); random by default. */
    masterKey?: string;
  } = {},
): Promise<TestApp> {
  const database = options.database ?? (await openTestDatabase());
  // The explicit test switches of the outbound guard (docs/outbound-guard.md): local servers on
  // loopback are reachable, and file:// repositories live below the fixtures' root. Production
  // defaults refuse both; tests of the guard itself override `outbound`.
  const config = loadConfig({ LOG_LEVEL: 'silent', ...TEST_OUTBOUND_ENV }, overrides);
  const tokenUsage = createTokenUsageTracker(database);
  const secretBox = createSecretBox(options.masterKey ?? randomBytes(32).toString('base64'));
  const jobDeps: JobDeps = {
    database,
    config,
    secretBox,
    log: () => {},
    observe: options.metrics,
  };
  const app = await buildApp({
    config,
    database,
    secretBox,
    rateLimits: createRateLimitStore(null),
    tokenUsage,
    buildInfo: readBuildInfo('test'),
    cliVersion: readCliVersion(),
    metrics: options.metrics,
    state: options.state,
    webAppDir: options.webAppDir ?? null,
  });
  options.configure?.(app);
  await app.ready();
  return {
    app,
    database,
    config,
    tokenUsage,
    secretBox,
    jobDeps,
    runJobs: async (runOptions = {}) => {
      const handlers = new Map(jobDefinitions(jobDeps).map((d) => [d.name, d]));
      const ran: string[] = [];
      for (let round = 0; round < 50; round++) {
        const batch = await takeOutbox(database, EVENT_SUBSCRIPTIONS);
        if (batch.length === 0) return ran;
        for (const { name, envelope } of batch) {
          if (runOptions.only && !runOptions.only.includes(name)) continue;
          const definition = handlers.get(name);
          if (!definition) throw new Error(`no handler registered for job ${name}`);
          // What the queue's send passes over never runs (src/jobs/queue.ts).
          if (!startsJob(definition, envelope)) continue;
          await definition.handle(envelope);
          ran.push(name);
          runOptions.onJob?.(name, envelope);
        }
      }
      throw new Error('jobs kept queueing jobs for 50 rounds');
    },
    createTenant: async (plan = 'enterprise', name = 'Tenant') => {
      const created = await createTenantWithOwner(database, { name, plan });
      return {
        tenantId: created.tenantId,
        token: created.ownerToken,
        tokenId: created.ownerTokenId,
      };
    },
    as: (token, options) =>
      app.inject({
        ...options,
        headers: { ...(options.headers ?? {}), authorization: `Bearer ${token}` },
      }),
    close: async () => {
      await app.close();
      await tokenUsage.stop();
      await database.close();
    },
  };
}
