/**
 * `npm run bench:startup`: time to ready and idle memory of the service on an existing embedded
 * database, run from the sources through tsx (`tsx src/main.ts`, what `npm start` ran before the
 * production build) and compiled (`node cli/driftwatch.cjs serve`, what it runs now), interleaved
 * in the same run. Targets: under 5 s to ready, under 300 MB RSS idle. Results go to
 * docs/benchmarks.md, section "Start-up and memory (npm run bench:startup)".
 *
 * - One compiled start creates the database first (reported as the first start, not counted).
 * - ready: from spawning the process to the first 200 from `GET /api/v1/ready` (polled every
 *   20 ms): database opened and migrated, workers started, HTTP listening.
 * - idle RSS: the resident memory of the whole process tree (tsx runs the service in a child
 *   process) after BENCH_IDLE_MS of no requests, and the main process's peak (VmHWM).
 * Run `npm run build` first; the compiled runs use dist/ as it is.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { serviceEnv, sleep } from '../test/support/service-process';
import { writeBenchmarkSection } from './report';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const IDLE_MS = Number(process.env.BENCH_IDLE_MS ?? 10_000);
const READY_LIMIT_MS = 180_000;
const ROOT = process.cwd();
/** USER_HZ: clock ticks per second in /proc/<pid>/stat (100 on Linux). */
const CLOCK_TICKS = 100;

type Mode = 'tsx' | 'compiled';
const COMMANDS: Record<Mode, { label: string; argv: string[] }> = {
  tsx: {
    label: 'sources through tsx (`tsx src/main.ts`)',
    argv: ['node_modules/.bin/tsx', 'src/main.ts'],
  },
  compiled: {
    label: 'compiled (`node cli/driftwatch.cjs serve`)',
    argv: [process.execPath, 'cli/driftwatch.cjs', 'serve'],
  },
};

interface Sample {
  readyMs: number;
  /** CPU seconds (user + system) the process tree used until ready: what load does not inflate. */
  cpuS: number;
  idleRssMb: number;
  peakRssMb: number;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

function statusKb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
  } catch {
    return 0;
  }
}

function descendants(pid: number): number[] {
  const children: number[] = [];
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const listed = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
      for (const child of listed ? listed.split(/\s+/).map(Number) : []) {
        children.push(child, ...descendants(child));
      }
    }
  } catch {
    // The process ended meanwhile.
  }
  return children;
}

const mb = (kb: number) => Math.round(kb / 1024);

/** User + system CPU seconds of a live process (/proc/<pid>/stat fields 14 and 15). */
function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}

async function waitReady(
  child: ChildProcess,
  port: number,
  started: number,
  output: () => string,
): Promise<number> {
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  while (performance.now() - started < READY_LIMIT_MS) {
    if (exited) throw new Error(`the service exited before it was ready:\n${output()}`);
    try {
      const response = await fetch(`http://127.0.0.1:${port}/api/v1/ready`);
      await response.arrayBuffer();
      if (response.status === 200) return performance.now() - started;
    } catch {
      // Not listening yet.
    }
    await sleep(20);
  }
  throw new Error(`not ready within ${READY_LIMIT_MS} ms`);
}

/** SIGTERM, then wait until the data directory is free (tsx's child may outlive tsx). */
async function stop(child: ChildProcess, dataDir: string): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  const lock = join(dataDir, 'driftwatch.lock');
  for (let waited = 0; existsSync(lock) && waited < 60_000; waited += 100) await sleep(100);
}

async function measure(mode: Mode, dataDir: string, idleMs: number): Promise<Sample> {
  const port = await freePort();
  const env = serviceEnv({ DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'warn' });
  const [command, ...args] = COMMANDS[mode].argv as [string, ...string[]];
  const started = performance.now();
  const child = spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  try {
    const readyMs = await waitReady(child, port, started, () => output);
    const atReady = [child.pid ?? 0, ...descendants(child.pid ?? 0)];
    const cpuS = atReady.reduce((sum, each) => sum + cpuSeconds(each), 0);
    await sleep(idleMs);
    const pid = child.pid ?? 0;
    const tree = [pid, ...descendants(pid)];
    const idleRssMb = mb(tree.reduce((sum, each) => sum + statusKb(each, 'VmRSS'), 0));
    const peakRssMb = mb(Math.max(...tree.map((each) => statusKb(each, 'VmHWM'))));
    return { readyMs, cpuS, idleRssMb, peakRssMb };
  } finally {
    await stop(child, dataDir);
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

async function main(): Promise<void> {
  if (!existsSync(join(ROOT, 'dist', 'manifest.json'))) {
    console.error('bench:startup runs the build in dist/: run `npm run build` first');
    process.exitCode = 2;
    return;
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'driftwatch-bench-startup-'));
  try {
    const first = await measure('compiled', dataDir, 0);
    console.log(`first start (creates the database): ${(first.readyMs / 1000).toFixed(1)} s`);
    const samples: Record<Mode, Sample[]> = { tsx: [], compiled: [] };
    for (let run = 0; run < RUNS; run++) {
      for (const mode of ['tsx', 'compiled'] as const) {
        const sample = await measure(mode, dataDir, IDLE_MS);
        samples[mode].push(sample);
        console.log(
          `${mode}: ready ${(sample.readyMs / 1000).toFixed(2)} s, CPU ${sample.cpuS.toFixed(2)} s, idle ${sample.idleRssMb} MB, peak ${sample.peakRssMb} MB`,
        );
      }
    }
    const rows = (['tsx', 'compiled'] as const).map((mode) => {
      const list = samples[mode];
      const ready = median(list.map((s) => s.readyMs)) / 1000;
      const cpu = median(list.map((s) => s.cpuS));
      return `| ${COMMANDS[mode].label} | ${ready.toFixed(2)} s | ${cpu.toFixed(2)} s | ${median(list.map((s) => s.idleRssMb))} MB | ${median(list.map((s) => s.peakRssMb))} MB |`;
    });
    const [one, five] = loadavg();
    writeBenchmarkSection(
      'Start-up and memory (npm run bench:startup)',
      `Time from spawning the service to the first 200 from \`GET /api/v1/ready\`, on an embedded
database that already exists (created by one start before the runs: ${(first.readyMs / 1000).toFixed(1)} s), and the resident
memory of the process tree after ${IDLE_MS / 1000} s idle. Medians of ${RUNS} interleaved runs;
role \`all\` (API, job workers, outbox relay), no registries, no feed. Targets: < 5 s, < 300 MB.
Load average at the end of the run: ${one?.toFixed(1)} / ${five?.toFixed(1)} (1 / 5 min; 2 cores shared
with other work): wall times grow with the load, the CPU seconds the process tree used until
ready (user + system, all threads, from /proc) do not, and are what a quiet machine's wall time
comes close to.

| run | ready (wall) | CPU to ready | idle RSS | peak RSS (main process) |
|---|---|---|---|---|
${rows.join('\n')}
`,
    );
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
