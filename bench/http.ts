/**
 * `npm run bench:http`: throughput and p99 of an authenticated, rate-limited, tenant-scoped
 * GET /api/v1/api-tokens (50 tokens in the tenant) against a bare Fastify route doing one indexed
 * SELECT on the same PostgreSQL database, in the same run. Target: ratio >= 0.70.
 */
import { randomBytes } from 'node:crypto';
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

async function load(url: string, token?: string) {
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: SECONDS,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${url}: ${result.non2xx} non-2xx responses, ${result.errors} errors`);
  }
  return { rps: result.requests.average, p99: result.latency.p99 };
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
    bare.get('/bare', async () => {
      const result = await database.pool.query(
        'SELECT id, name, prefix FROM api_tokens WHERE secret_hash = $1',
        [hash],
      );
      return { items: result.rows };
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
    for (let round = 0; round < ROUNDS; round++) {
      bareRuns.push(await load(`${bareUrl}/bare`));
      authRuns.push(await load(`${appUrl}/api/v1/api-tokens`, tenant.ownerToken));
    }
    const best = (runs: { rps: number; p99: number }[]) =>
      runs.reduce((a, b) => (b.rps > a.rps ? b : a));
    const b = best(bareRuns);
    const a = best(authRuns);
    const ratio = a.rps / b.rps;
    const table = [
      '| route | requests/s | p99 latency (ms) |',
      '|---|---:|---:|',
      `| bare Fastify, one indexed SELECT | ${b.rps.toFixed(0)} | ${b.p99} |`,
      `| GET /api/v1/api-tokens (auth, rate limit, tenant transaction, 50 tokens) | ${a.rps.toFixed(0)} | ${a.p99} |`,
      '',
      `Ratio authenticated / bare: **${ratio.toFixed(2)}** (target >= 0.70).`,
    ].join('\n');
    console.log(table);
    writeBenchmarkSection(
      'HTTP (npm run bench:http)',
      `PostgreSQL 15 on 127.0.0.1, ${CONNECTIONS} connections, best of ${ROUNDS} rounds of ${SECONDS} s each, load generator (autocannon) in the same process; measured ${new Date().toISOString().slice(0, 10)}.\n\n${table}`,
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
