/**
 * `npm run bench:http`: throughput and p99 of an authenticated, rate-limited, tenant-scoped
 * GET /api/v1/api-tokens (50 tokens in the tenant) against a bare Fastify route doing one indexed
 * SELECT on the same PostgreSQL database, in the same run. Target: ratio >= 0.70.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import pg from 'pg';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { openDatabase } from '../src/db/connection';
import { migrate } from '../src/db/migrate';
import { createTokenUsageTracker } from '../src/domains/api-tokens/usage-tracker';
import { readBuildInfo, readCliVersion } from '../src/domains/system/build-info';
import { createTenantWithOwner } from '../src/domains/tenants/service';
import { createRateLimitStore } from '../src/http/rate-limit';
import { createSecretBox } from '../src/security/secret-box';
import { hashToken } from '../src/security/tokens';
import { writeBenchmarkSection } from './report';

const serverUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);

/** CPU seconds (user + system) each database server backend for `database` has used, by pid. */
async function backendCpuSeconds(admin: pg.Client, database: string): Promise<Map<number, number>> {
  const { rows } = await admin.query<{ pid: number }>(
    'SELECT pid FROM pg_stat_activity WHERE datname = $1',
    [database],
  );
  const seconds = new Map<number, number>();
  for (const { pid } of rows) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      seconds.set(pid, (Number(fields[11]) + Number(fields[12])) / 100);
    } catch {
      // Not on this machine (remote server) or the backend ended: counted as zero.
    }
  }
  return seconds;
}

/** CPU used between two readings; backends that ended meanwhile are not counted. */
function cpuDelta(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, seconds] of after) total += seconds - (before.get(pid) ?? 0);
  return total;
}

/**
 * Throughput is what the target is about, but on a shared 2-core machine it moves with whatever
 * else runs; CPU per request (this process, load generator included, plus the database
 * backends) is the steadier number, so both are reported.
 */
async function load(url: string, cpu: () => Promise<Map<number, number>>, token?: string) {
  const before = { node: process.cpuUsage(), db: await cpu() };
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: SECONDS,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  const nodeUsage = process.cpuUsage(before.node);
  const dbSeconds = cpuDelta(before.db, await cpu());
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${url}: ${result.non2xx} non-2xx responses, ${result.errors} errors`);
  }
  const requests = result.requests.total;
  return {
    rps: result.requests.average,
    p99: result.latency.p99,
    nodeMicros: (nodeUsage.user + nodeUsage.system) / requests,
    dbMicros: (dbSeconds * 1e6) / requests,
  };
}

async function main() {
  const name = `dw_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString(), dataDir: null, poolSize: 10 });
  try {
    await migrate(database.pool);
    const config = loadConfig(
      {
        LOG_LEVEL: 'silent',
        RATE_LIMIT_TOKEN_PER_MINUTE: '10000000',
        RATE_LIMIT_TENANT_PER_MINUTE: '10000000',
      },
      {},
    );
    const tenant = await createTenantWithOwner(database, { name: 'Bench', plan: 'enterprise' });
    const tokenUsage = createTokenUsageTracker(database);
    const app = await buildApp({
      config,
      database,
      secretBox: createSecretBox(randomBytes(32).toString('base64')),
      rateLimits: createRateLimitStore(null),
      tokenUsage,
      buildInfo: readBuildInfo('bench'),
      cliVersion: readCliVersion(),
    });
    const appUrl = await app.listen({ port: 0, host: '127.0.0.1' });
    for (let i = 1; i < 50; i++) {
      const res = await fetch(`${appUrl}/api/v1/api-tokens`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${tenant.ownerToken}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ name: `token-${i}`, roleScopeJson: null, expiresAtUtc: null }),
      });
      if (res.status !== 201) throw new Error(`token creation failed: ${res.status}`);
    }

    const bare = Fastify({ logger: false });
    const hash = hashToken(tenant.ownerToken);
    // The same rows the authenticated route returns, by the same index, so the ratio measures
    // what authentication, rate limiting and the tenant transaction cost, not payload size.
    bare.get('/bare', async () => {
      const result = await database.pool.query(
        `SELECT id, name, prefix, role_scope_json, expires_at, created_at, last_used_at, revoked_at
         FROM api_tokens WHERE tenant_id = (SELECT tenant_id FROM api_tokens WHERE secret_hash = $1)
         ORDER BY created_at DESC, id DESC`,
        [hash],
      );
      return { items: result.rows, totalEstimate: result.rows.length };
    });
    const bareUrl = await bare.listen({ port: 0, host: '127.0.0.1' });

    // Warm up both, then alternate so drift of the shared machine hits both alike.
    await autocannon({ url: `${bareUrl}/bare`, connections: CONNECTIONS, duration: 2 });
    await autocannon({
      url: `${appUrl}/api/v1/api-tokens`,
      connections: CONNECTIONS,
      duration: 2,
      headers: { authorization: `Bearer ${tenant.ownerToken}` },
    });
    const bareRuns = [];
    const authRuns = [];
    const cpu = () => backendCpuSeconds(admin, name);
    for (let round = 0; round < ROUNDS; round++) {
      bareRuns.push(await load(`${bareUrl}/bare`, cpu));
      authRuns.push(await load(`${appUrl}/api/v1/api-tokens`, cpu, tenant.ownerToken));
    }
    const best = <T extends { rps: number }>(runs: T[]) =>
      runs.reduce((a, b) => (b.rps > a.rps ? b : a));
    const b = best(bareRuns);
    const a = best(authRuns);
    const ratio = a.rps / b.rps;
    const table = [
      '| route | requests/s | p99 latency (ms) | CPU µs/request: Node (incl. load generator) | CPU µs/request: PostgreSQL |',
      '|---|---:|---:|---:|---:|',
      `| bare Fastify, one indexed SELECT of the same 50 rows | ${b.rps.toFixed(0)} | ${b.p99} | ${b.nodeMicros.toFixed(0)} | ${b.dbMicros.toFixed(0)} |`,
      `| GET /api/v1/api-tokens (auth, rate limit, tenant scope + RLS, 50 tokens) | ${a.rps.toFixed(0)} | ${a.p99} | ${a.nodeMicros.toFixed(0)} | ${a.dbMicros.toFixed(0)} |`,
      '',
      `Ratio authenticated / bare: **${ratio.toFixed(2)}** requests/s (target >= 0.70); by total CPU per request ${((b.nodeMicros + b.dbMicros) / (a.nodeMicros + a.dbMicros)).toFixed(2)}.`,
    ].join('\n');
    console.log(table);
    writeBenchmarkSection(
      'HTTP (npm run bench:http)',
      `PostgreSQL 15 on 127.0.0.1, ${CONNECTIONS} connections, best of ${ROUNDS} rounds of ${SECONDS} s each, load generator (autocannon) in the same process; the bare route selects the same 50 rows by the same index and serialises them with JSON.stringify; authenticated reads scope a session from the read pool (docs/decisions/0003-read-sessions.md); load average at start ${(loadavg()[0] ?? 0).toFixed(2)}; measured ${new Date().toISOString().slice(0, 10)}.\n\n${table}`,
    );
    await bare.close();
    await app.close();
    await tokenUsage.stop();
  } finally {
    await database.close();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
