import { type AddressInfo, createServer } from 'node:net';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POLLING_INTERVAL_SECONDS } from '../../src/jobs/queue';
import { createGitRepository, type GitFixture, POLYGLOT_FILES } from '../support/git-fixtures';
import {
  CRASH_SIGNS,
  prepareServiceDatabase,
  type ServiceDatabase,
  serviceEnv,
  sleep,
  spawnCaptured,
  startServiceProcess,
} from '../support/service-process';

/**
 * The process model of docs/operations.md with real `driftwatch serve` processes: SIGTERM under
 * load stops in order (exit 0, nothing touches a closed pool, every request answered or refused
 * at the connection, never a 500), repeatedly; and a job whose worker is killed with SIGKILL
 * runs again after its expiry. On the embedded database by default, on PostgreSQL with
 * TEST_DATABASE_URL.
 */
const serverUrl = process.env.TEST_DATABASE_URL;
const engine = serverUrl ? 'PostgreSQL' : 'embedded';
const STOPS = serverUrl ? 3 : 8;

const prepareDatabase = () => prepareServiceDatabase(serverUrl, 'Life');

interface LoadResult {
  /** Responses by status. */
  statuses: Record<number, number>;
  /** Requests that ended without a response (refused or reset at the connection). */
  refused: number;
  /** Connection errors before the stop began: there must be none. */
  early: string[];
  /** 5xx responses that are not problem documents: there must be none. */
  bare: string[];
}

/** Four concurrent request loops until the process exits (bounded to 5,000 requests each). */
function runLoad(
  base: string,
  token: string,
  repositoryId: string,
  stopSent: () => boolean,
  exited: Promise<unknown>,
): Promise<LoadResult> {
  const result: LoadResult = { statuses: {}, refused: 0, early: [], bare: [] };
  let done = false;
  void exited.then(() => {
    done = true;
  });
  const paths = [
    ['GET', '/api/v1/api-tokens'],
    ['GET', `/api/v1/repositories/${repositoryId}/dependencies`],
    ['GET', `/api/v1/repositories/${repositoryId}`],
    ['POST', `/api/v1/repositories/${repositoryId}/scan`],
  ] as const;
  const loop = async (offset: number) => {
    for (let i = 0; i < 5000 && !done; i++) {
      const [method, path] = paths[(i + offset) % paths.length] as (typeof paths)[number];
      try {
        const response = await fetch(`${base}${path}`, {
          method,
          headers: { authorization: `Bearer ${token}` },
        });
        await response.arrayBuffer();
        result.statuses[response.status] = (result.statuses[response.status] ?? 0) + 1;
        const type = response.headers.get('content-type') ?? '';
        if (response.status >= 500 && !type.startsWith('application/problem+json')) {
          result.bare.push(`${response.status} ${type}`);
        }
      } catch (error) {
        if (!stopSent()) result.early.push(String((error as Error).cause ?? error));
        result.refused++;
        await sleep(5);
      }
    }
  };
  return Promise.all([0, 1, 2, 3].map(loop)).then(() => result);
}

describe(`graceful stop under load (${engine})`, () => {
  let database: ServiceDatabase;
  let repo: GitFixture;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    database = await prepareDatabase();
    repo = createGitRepository(POLYGLOT_FILES);
    env = serviceEnv({
      ...database.env,
      SCAN_ALLOW_FILE_URLS: 'true',
      SCAN_FILE_URL_ROOTS: dirname(repo.directory),
      SCAN_HEARTBEAT_SECONDS: '1',
      SHUTDOWN_TIMEOUT_SECONDS: '20',
    });
  }, 60_000);
  afterAll(async () => {
    repo?.remove();
    await database?.remove();
  });

  it(`exits 0 after SIGTERM under load, ${STOPS} times in a row`, async () => {
    let token = database.token;
    let repositoryId: string | null = null;
    const rounds: string[] = [];
    for (let round = 0; round < STOPS; round++) {
      const startedAt = Date.now();
      const service = await startServiceProcess(env);
      const startMs = Date.now() - startedAt;
      token ??= service.bootstrapToken;
      if (!token) throw new Error(`no owner token:\n${service.output()}`);
      const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
      if (!repositoryId) {
        const imported = await fetch(`${service.base}/api/v1/repositories/import`, {
          method: 'POST',
          headers: auth,
          body: JSON.stringify({ repositories: [{ url: repo.url }] }),
        });
        const body = (await imported.json()) as { items?: { repositoryId?: string }[] };
        repositoryId = body.items?.[0]?.repositoryId ?? null;
        if (!repositoryId) throw new Error(`import failed: ${JSON.stringify(body)}`);
      }
      let stopSent = false;
      const load = runLoad(service.base, token, repositoryId, () => stopSent, service.exited);
      // Stop at a different moment each round: mid-request, mid-scan, mid-relay.
      await sleep(1500 + round * 150);
      stopSent = true;
      const stoppedAt = Date.now();
      service.child.kill('SIGTERM');
      const exit = await service.exited;
      const stopMs = Date.now() - stoppedAt;
      const result = await load;
      const output = service.output();
      expect(exit, output).toEqual({ code: 0, signal: null });
      for (const sign of CRASH_SIGNS) expect(output).not.toContain(sign);
      expect(result.early).toEqual([]);
      expect(result.bare).toEqual([]);
      // Every response is an answer the contract allows under load: never a 5xx but 503.
      const statuses = Object.keys(result.statuses).map(Number);
      expect(statuses.filter((status) => status >= 500 && status !== 503)).toEqual([]);
      expect(result.statuses[200] ?? 0).toBeGreaterThan(0);
      expect(stopMs).toBeLessThan(20_000);
      rounds.push(
        `start ${startMs} ms, stop ${stopMs} ms, ${JSON.stringify(result.statuses)}, refused ${result.refused}`,
      );
    }
    console.info(`${engine}: ${rounds.join('\n')}`);
  }, 900_000);
});

const WORKER = fileURLToPath(new URL('../support/job-worker-process.ts', import.meta.url));

/**
 * The stale threshold of a job is its expiry (pg-boss `expireInSeconds`, per job definition);
 * maintenance, every `maintenanceIntervalSeconds`, fails an expired job over to its retry. Both
 * small here. After that the retry waits out its backoff (retryDelay 1 s doubled once: at most
 * 2 s on the first retry) and the next poll of the survivor (POLLING_INTERVAL_SECONDS). The job
 * must finish within those plus a margin of the later of its expiry and the survivor being
 * ready. Issue 11 saw 85-110 s against a 20 s threshold; this fails a few seconds past it.
 */
const EXPIRY_SECONDS = 3;
const MAINTENANCE_SECONDS = 1;
const RETRY_BACKOFF_SECONDS = 2;
const MARGIN_SECONDS = 5;
const RECOVERY_BOUND_MS =
  (MAINTENANCE_SECONDS + RETRY_BACKOFF_SECONDS + POLLING_INTERVAL_SECONDS + MARGIN_SECONDS) * 1000;

function runWorker(mode: 'send' | 'hang' | 'finish', env: NodeJS.ProcessEnv) {
  return spawnCaptured(['--import', 'tsx', WORKER, mode], env);
}

describe(`a job whose worker is killed with SIGKILL (${engine})`, () => {
  let database: ServiceDatabase;
  beforeAll(async () => {
    database = await prepareDatabase();
  }, 60_000);
  afterAll(async () => {
    await database?.remove();
  });

  it('runs again in another worker within its expiry plus one maintenance pass', async () => {
    const env = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      ...database.env,
      KILL_NINE_EXPIRY_SECONDS: String(EXPIRY_SECONDS),
      KILL_NINE_MAINTENANCE_SECONDS: String(MAINTENANCE_SECONDS),
    };
    const sender = runWorker('send', env);
    await sender.waitFor('sent', 60_000);
    expect((await sender.exited).code).toBe(0);

    const doomed = runWorker('hang', env);
    await doomed.waitFor('started 0', 60_000);
    doomed.child.kill('SIGKILL');
    await doomed.exited;

    // The survivor starts at once; the job is handed to it only when its expiry has passed and
    // maintenance has failed it over to a retry. The bound counts from the later of the expiry
    // and the survivor being ready (its start, tsx and migrations, is no part of the recovery).
    const killedAt = Date.now();
    const survivor = runWorker('finish', env);
    try {
      await survivor.waitFor('working', 120_000);
      const readyAt = Date.now();
      await survivor.waitFor('finished 1', 120_000);
      const finishedAt = Date.now();
      const from = Math.max(killedAt + EXPIRY_SECONDS * 1000, readyAt);
      const recovery = { sinceKillMs: finishedAt - killedAt, pastBoundStartMs: finishedAt - from };
      console.info('kill -9 recovery', { ...recovery, boundMs: RECOVERY_BOUND_MS });
      expect(recovery.sinceKillMs).toBeGreaterThan(1000);
      expect(recovery.pastBoundStartMs).toBeLessThan(RECOVERY_BOUND_MS);
      expect(survivor.output()).not.toContain('finished 0');
    } finally {
      survivor.child.kill('SIGTERM');
      await survivor.exited;
    }
  }, 180_000);
});

describe(`a service that cannot start (${engine})`, () => {
  let database: ServiceDatabase;
  beforeAll(async () => {
    database = await prepareDatabase();
  }, 60_000);
  afterAll(async () => {
    await database?.remove();
  });

  it('exits 1 when its port is taken, leaving no workers behind', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as AddressInfo;
    try {
      const env = serviceEnv({ ...database.env, PORT: String(port) });
      await expect(startServiceProcess(env)).rejects.toThrow('the service could not start');
    } finally {
      taken.close();
    }
  }, 120_000);

  it.runIf(!serverUrl)(
    'refuses a data directory a running service owns',
    async () => {
      const env = serviceEnv(database.env);
      const owner = await startServiceProcess(env);
      try {
        const error = await startServiceProcess(env).catch((failure: Error) => failure);
        expect(String(error)).toContain(
          `The data directory is in use by process ${owner.child.pid}`,
        );
      } finally {
        owner.child.kill('SIGTERM');
        expect(await owner.exited).toEqual({ code: 0, signal: null });
      }
    },
    180_000,
  );
});
