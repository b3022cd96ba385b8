/**
 * `npm run bench:quantum-whole-scan`: what the cryptography inventory adds to a whole scan of the
 * same repository, as a user sees it (docs/quantum.md#speed; target: no more than a fifth).
 * bench/quantum-scan.ts times the parts in isolation; this one runs the service as deployed (the
 * built `driftwatch serve`, its own process) and scans this repository's committed tree, cloned
 * from a file:// URL, for two tenants that differ only in their plan: `team` (no quantum area, so
 * no inventory) and `enterprise` (the inventory's thread beside extraction). Same repository, same
 * process, scans taken in turn (ABBA), after one warm-up scan each.
 *
 * Per scan: its duration as the API reports it (finishedAtUtc - startedAtUtc: clone, extraction,
 * reachability, inventory, the database writes) and the service process's CPU (all its threads,
 * from /proc) from the request until the process is idle again, so the jobs a scan queues
 * (matching, evaluation) are counted too. Medians of BENCH_RUNS pairs (default 5). The embedded
 * database by default; PostgreSQL with TEST_DATABASE_URL (a scratch database, dropped after).
 * BENCH_WITHOUT_CORPUS=1 scans the tree without test/support/quantum-corpus (345 crypto-dense
 * files no ordinary repository holds), as an ordinary repository of this size.
 * Prints the figures; docs/benchmarks.md and docs/quantum.md are written by hand from them.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { git, TEST_REPOSITORY_ROOT } from '../test/support/git-fixtures';
import {
  type ApiCall,
  apiClient,
  prepareServiceDatabase,
  type ServiceDatabase,
  type ServiceProcess,
  serviceEnv,
  sleep,
  spawnCaptured,
  startServiceProcess,
  waitForScan,
} from '../test/support/service-process';
import { median } from './report';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const serverUrl = process.env.TEST_DATABASE_URL;
const CLI = join(process.cwd(), 'cli/driftwatch.cjs');
const TICKS_PER_SECOND = 100;

type Mode = 'without' | 'with';

interface Sample {
  wallMs: number;
  cpuMs: number;
}

/** User + system CPU of a process and all its threads, in ms (/proc/PID/stat, fields 14-15). */
function cpuMsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

/** Waits until the process used under 2 % of a core over half a second: its queue is drained. */
async function settled(pid: number): Promise<void> {
  for (let round = 0; round < 240; round += 1) {
    const before = cpuMsOf(pid);
    await sleep(500);
    if (cpuMsOf(pid) - before < 10) return;
  }
}

/** A tenant on `plan` with the repository imported; its owner token through `admin`. */
async function tenantWithRepository(
  env: NodeJS.ProcessEnv,
  base: string,
  plan: string,
  url: string,
): Promise<{ call: ApiCall; repositoryId: string }> {
  const created = spawnCaptured(
    [CLI, 'admin', 'create-tenant', '--name', `Bench ${plan}`, '--plan', plan],
    env,
  );
  const { code } = await created.exited;
  const token = /shown once, store it now\):\n(\S+)/.exec(created.output())?.[1];
  if (code !== 0 || !token) throw new Error(`create-tenant failed:\n${created.output()}`);
  const call = apiClient(base, token);
  const imported = await call('POST', '/api/v1/repositories/import', { repositories: [{ url }] });
  const repositoryId = imported.body.items?.[0]?.repositoryId;
  if (typeof repositoryId !== 'string')
    throw new Error(`import failed: ${JSON.stringify(imported.body)}`);
  return { call, repositoryId };
}

async function oneScan(pid: number, call: ApiCall, repositoryId: string): Promise<Sample> {
  await settled(pid);
  const cpuBefore = cpuMsOf(pid);
  const queued = await call('POST', `/api/v1/repositories/${repositoryId}/scan`);
  if (queued.status !== 202) throw new Error(`scan not queued: ${queued.status}`);
  const scan = await waitForScan(call, queued.body.scanId, 300_000);
  if (scan.state !== 'completed') throw new Error(`scan ${scan.state}: ${scan.error ?? ''}`);
  await settled(pid);
  return {
    wallMs: Date.parse(scan.finishedAtUtc) - Date.parse(scan.startedAtUtc),
    cpuMs: cpuMsOf(pid) - cpuBefore,
  };
}

function report(samples: Record<Mode, Sample[]>): void {
  const m = (mode: Mode, key: keyof Sample) => median(samples[mode].map((s) => s[key]));
  const share = (key: keyof Sample) =>
    `${(((m('with', key) - m('without', key)) / m('without', key)) * 100).toFixed(1)} %`;
  const list = (mode: Mode, key: keyof Sample) =>
    samples[mode].map((s) => s[key].toFixed(0)).join(', ');
  const tree = process.env.BENCH_WITHOUT_CORPUS === '1' ? 'without the corpus' : 'whole tree';
  console.log(`engine: ${serverUrl ? 'PostgreSQL' : 'embedded'}, ${tree}, ${RUNS} scans per plan`);
  console.log(
    `scan duration, ms (median): without the inventory ${m('without', 'wallMs').toFixed(0)} [${list('without', 'wallMs')}]`,
  );
  console.log(
    `                             with the inventory    ${m('with', 'wallMs').toFixed(0)} [${list('with', 'wallMs')}]  -> adds ${share('wallMs')}`,
  );
  console.log(
    `service CPU per scan, ms (median): without ${m('without', 'cpuMs').toFixed(0)} [${list('without', 'cpuMs')}]`,
  );
  console.log(
    `                                   with    ${m('with', 'cpuMs').toFixed(0)} [${list('with', 'cpuMs')}]  -> adds ${share('cpuMs')}`,
  );
}

async function main(): Promise<void> {
  execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'ignore' });
  mkdirSync(TEST_REPOSITORY_ROOT, { recursive: true });
  const parent = mkdtempSync(join(TEST_REPOSITORY_ROOT, 'bench-quantum-'));
  const checkout = join(parent, 'driftwatch');
  execFileSync('git', ['clone', '--quiet', '--depth', '1', `file://${process.cwd()}`, checkout]);
  if (process.env.BENCH_WITHOUT_CORPUS === '1') {
    git(checkout, 'rm', '-r', '--quiet', 'test/support/quantum-corpus');
    git(checkout, 'commit', '--quiet', '-m', 'without the labelled corpus');
  }
  let database: ServiceDatabase | undefined;
  let service: ServiceProcess | undefined;
  try {
    database = await prepareServiceDatabase(serverUrl, 'Bench');
    const env = serviceEnv({
      ...database.env,
      LOG_LEVEL: 'error',
      SCAN_ALLOW_FILE_URLS: 'true',
      SCAN_FILE_URL_ROOTS: TEST_REPOSITORY_ROOT,
    });
    service = await startServiceProcess(env);
    const pid = service.child.pid ?? 0;
    const url = pathToFileURL(checkout).toString();
    const tenants = {
      without: await tenantWithRepository(env, service.base, 'team', url),
      with: await tenantWithRepository(env, service.base, 'enterprise', url),
    };
    const samples: Record<Mode, Sample[]> = { without: [], with: [] };
    for (const mode of ['without', 'with'] as const) {
      await oneScan(pid, tenants[mode].call, tenants[mode].repositoryId);
    }
    for (let run = 0; run < RUNS; run += 1) {
      const order: Mode[] = run % 2 === 0 ? ['without', 'with'] : ['with', 'without'];
      for (const mode of order) {
        samples[mode].push(await oneScan(pid, tenants[mode].call, tenants[mode].repositoryId));
      }
    }
    report(samples);
  } finally {
    service?.child.kill('SIGTERM');
    await service?.exited;
    await database?.remove();
    rmSync(parent, { recursive: true, force: true });
  }
}

await main();
