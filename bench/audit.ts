/**
 * `npm run bench:audit`: driftwatch's offline audit against npm's own `npm audit`
 * (../shared/tools/npm-audit-peer, answering from a loopback server) on the same lockfiles and
 * the same advisories, in the same run, interleaved. Target: at least 10x faster than the peer
 * with identical findings. Results go to docs/benchmarks.md, section "Audit (npm run bench:audit)".
 *
 * Three timings per lockfile (medians of BENCH_RUNS runs):
 * - peer: `run.sh` wall time — loopback server start, `npm audit --package-lock-only`, exit.
 *   Its advisories (every npm record of ../shared/data/osv, converted once by osv2bulk.js) are
 *   prepared before timing starts.
 * - warm: driftwatch with ALL advisories (every file of ../shared/data/osv, every ecosystem)
 *   loaded and indexed once, as the API server holds them: read + extract the lockfile, match.
 * - first: the whole `driftwatch audit <lockfile> --osv <every .jsonl> --json` process with an
 *   empty advisory-index cache: it reads and indexes all 12,860 advisories and writes the index.
 * - cold: the same process with the index written by an earlier run (the normal case: the index
 *   is rebuilt only when an advisory file or the build changes).
 * - node: `node -e 0`, the floor of any Node process on this machine at that moment.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { promisify } from 'node:util';
import { extractPath } from '../src/ecosystems/extract-tree';
import { auditExtraction, prepareAdvisories } from '../src/intel/osv/audit';
import { loadAdvisories } from '../src/intel/osv/load';
import {
  buildPeerAdvisories,
  npmDirectMatches,
  runNpmPeer,
  tripleKey,
} from '../test/support/npm-audit-peer';
import { sharedDataDir } from '../test/support/shared-data';
import { median, writeBenchmarkSection } from './report';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const SUBJECTS = Number(process.env.BENCH_SUBJECTS ?? 4);
const exec = promisify(execFile);

function findLockfiles(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) findLockfiles(path, out);
    else if (entry.name === 'package-lock.json') out.push(path);
  }
  return out;
}

type Prepared = ReturnType<typeof prepareAdvisories>;

/** What every subject's runs share: the advisories in both forms and the CLI runner. */
interface Setup {
  sharedData: string;
  toolDir: string;
  osvFiles: string[];
  prepared: Prepared;
  /** Reading and indexing all advisories, once (ms). */
  loadMs: number;
  indexMs: number;
  bulk: string;
  bulkNames: number;
  oneAdvisory: string;
  runCli: (lockfile: string, osvArgs: string[], cache?: string) => Promise<unknown>;
  osvArgs: string[];
  work: string;
}

async function setUp(sharedData: string, work: string): Promise<Setup> {
  const toolDir = join(sharedData, '..', 'tools', 'npm-audit-peer');
  const osvDir = join(sharedData, 'osv');
  const osvFiles = readdirSync(osvDir)
    .filter((f) => f.endsWith('.jsonl'))
    .sort()
    .map((f) => join(osvDir, f));
  const t0 = performance.now();
  const loaded = await loadAdvisories(osvFiles);
  const t1 = performance.now();
  const prepared = prepareAdvisories(loaded.advisories);
  const t2 = performance.now();
  const { bulk } = await buildPeerAdvisories(toolDir, osvFiles, work);
  const bulkNames = Object.keys(JSON.parse(readFileSync(bulk, 'utf8'))).length;
  // One advisory naming nothing: the cold process without the cost of the advisory database.
  const oneAdvisory = join(work, 'one.jsonl');
  writeFileSync(
    oneAdvisory,
    `${JSON.stringify({ id: 'OSV-BENCH-1', modified: '2024-01-01T00:00:00Z', affected: [] })}\n`,
  );
  const cli = join(process.cwd(), 'cli', 'driftwatch.cjs');
  const cacheDir = join(work, 'index');
  const runCli = (lockfile: string, osvArgs: string[], cache = cacheDir) =>
    exec('node', [cli, 'audit', lockfile, ...osvArgs, '--json', '--cache-dir', cache], {
      maxBuffer: 256 * 1024 * 1024,
    }).catch((error: { code?: number }) => {
      if (error.code !== 1) throw error;
    });
  const osvArgs = osvFiles.flatMap((f) => ['--osv', f]);
  // Builds the CLI bundle (once per install) and the advisory index before timing.
  await runCli(findLockfiles(sharedData)[0]!, osvArgs);
  return {
    sharedData,
    toolDir,
    osvFiles,
    prepared,
    loadMs: t1 - t0,
    indexMs: t2 - t1,
    bulk,
    bulkNames,
    oneAdvisory,
    runCli,
    osvArgs,
    work,
  };
}

/** One lockfile's medians and whether its findings equal the peer's. */
interface SubjectResult {
  line: string;
  identical: boolean;
  /** peer / warm and peer / cold. */
  warmRatio: number;
  coldRatio: number;
}

/** Each contender's run times, in milliseconds. */
type Timings = Record<'peer' | 'warm' | 'first' | 'cold' | 'startup' | 'node', number[]>;

async function measureSubject(
  setup: Setup,
  subject: { path: string; bytes: number },
): Promise<SubjectResult> {
  const { runCli, osvArgs, work } = setup;
  const times: Timings = { peer: [], warm: [], first: [], cold: [], startup: [], node: [] };
  let ours = new Set<string>();
  let peer = new Set<string>();
  let dependencies = 0;
  const timed = async <T>(name: keyof Timings, step: () => Promise<T>): Promise<T> => {
    const start = performance.now();
    const value = await step();
    times[name].push(performance.now() - start);
    return value;
  };
  for (let run = 0; run < RUNS; run++) {
    // Interleaved, so a load spike hits all three alike.
    const report = await timed('peer', () =>
      runNpmPeer(setup.toolDir, setup.bulk, dirname(subject.path)),
    );
    peer = new Set(npmDirectMatches(report, readFileSync(subject.path, 'utf8')).map(tripleKey));

    const result = await timed('warm', async () =>
      auditExtraction(await extractPath(subject.path), setup.prepared),
    );
    dependencies = result.stats.dependencies;
    ours = new Set(
      result.findings
        .filter((f) => f.status === 'affected' && f.ecosystem === 'npm')
        .flatMap((f) => f.advisoryIds.map((id) => `${f.name}@${f.version} ${id}`)),
    );

    const emptyCache = join(work, `first-${run}`);
    await timed('first', () => runCli(subject.path, osvArgs, emptyCache));
    rmSync(emptyCache, { recursive: true, force: true });
    await timed('cold', () => runCli(subject.path, osvArgs));
    await timed('startup', () => runCli(subject.path, ['--osv', setup.oneAdvisory]));
    await timed('node', () => exec('node', ['-e', '0']));
  }
  const identical = ours.size === peer.size && [...ours].every((k) => peer.has(k));
  const p = median(times.peer);
  const w = median(times.warm);
  const c = median(times.cold);
  const st = median(times.startup);
  const f = median(times.first);
  const n = median(times.node);
  const name = relative(setup.sharedData, subject.path);
  const line = `| ${name} | ${Math.round(subject.bytes / 1024)} | ${dependencies} | ${peer.size} | ${identical ? 'yes' : `NO (${ours.size} vs ${peer.size})`} | ${p.toFixed(0)} | ${w.toFixed(1)} | ${(p / w).toFixed(0)}x | ${c.toFixed(0)} | ${(p / c).toFixed(1)}x | ${f.toFixed(0)} | ${st.toFixed(0)} | ${n.toFixed(0)} | ${(p / n).toFixed(1)}x |`;
  return { line, identical, warmRatio: p / w, coldRatio: p / c };
}

function reportBody(setup: Setup, results: SubjectResult[], loadAtStart: number): string {
  const { prepared, osvFiles } = setup;
  const allIdentical = results.every((r) => r.identical);
  const worstWarm = Math.min(Number.POSITIVE_INFINITY, ...results.map((r) => r.warmRatio));
  const worstCold = Math.min(Number.POSITIVE_INFINITY, ...results.map((r) => r.coldRatio));
  const loadAtEnd = loadavg()[0] ?? 0;
  return [
    `Median of ${RUNS} interleaved runs per lockfile, the ${SUBJECTS} largest npm lockfiles of ../shared/data (the peer reads package-lock.json only); Node ${process.version}; load average ${loadAtStart.toFixed(2)} at start, ${loadAtEnd.toFixed(2)} at end (2 cores, shared with other work); measured ${new Date().toISOString().slice(0, 10)}.`,
    '',
    `- **peer**: npm's own audit via ../shared/tools/npm-audit-peer \`run.sh\` (loopback server + \`npm audit --package-lock-only\`), fed every npm record of ../shared/data/osv (${setup.bulkNames} package names after osv2bulk.js).`,
    `- **warm**: driftwatch with all ${prepared.index.size} advisories of every ecosystem (${osvFiles.length} files, ${prepared.vulnerabilities.length} vulnerabilities after alias joining) loaded once — reading them took ${setup.loadMs.toFixed(0)} ms and indexing ${setup.indexMs.toFixed(0)} ms — then per run: read and extract the lockfile, match every dependency. This is the API/scan-worker situation.`,
    "- **cold**: the whole `driftwatch audit <lockfile> --osv <every .jsonl> --json` process, as a user runs it: the bundled CLI (cli/fast-start.cjs) with the advisory index an earlier run wrote (it reads only the records of flaws naming the lockfile's packages and validates them in full).",
    '- **first**: the same process with an empty index cache: it reads all 22 MB of advisories, writes the index, then audits (once per change of the advisory files).',
    '- **no-db**: the same process with a one-record advisory file: starting Node, loading the bundle and extracting the lockfile.',
    '- **node**: `node -e 0`, the floor of any Node.js process here; peer / node is the best ratio any Node.js CLI could reach.',
    "- **identical**: the set of (package, version, advisory id) direct matches equals npm's (npm-ecosystem findings; see src/intel/osv/npm-audit-peer.test.ts for the named prerelease difference).",
    '',
    '| lockfile | KiB | dependencies | npm matches | identical | peer ms | warm ms | peer / warm | cold ms | peer / cold | first ms | no-db ms | node ms | peer / node |',
    '|---|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...results.map((r) => r.line),
    '',
    `Slowest ratio peer / warm: **${worstWarm.toFixed(0)}x**; peer / cold: **${worstCold.toFixed(1)}x** (target >= 10x); findings identical on every lockfile: **${allIdentical ? 'yes' : 'no'}**.`,
  ].join('\n');
}

async function main(): Promise<void> {
  if (!sharedDataDir) {
    console.error('bench:audit needs ../shared/data (set DRIFTWATCH_SHARED_DATA)');
    process.exitCode = 2;
    return;
  }
  const loadAtStart = loadavg()[0] ?? 0;
  const work = mkdtempSync(join(tmpdir(), 'dw-bench-audit-'));
  try {
    const setup = await setUp(sharedDataDir, work);
    const subjects = findLockfiles(sharedDataDir)
      .map((path) => ({ path, bytes: statSync(path).size }))
      .sort((a, b) => b.bytes - a.bytes)
      .slice(0, SUBJECTS);
    const results: SubjectResult[] = [];
    for (const subject of subjects) {
      const result = await measureSubject(setup, subject);
      results.push(result);
      console.log(result.line);
    }
    const body = reportBody(setup, results, loadAtStart);
    writeBenchmarkSection('Audit (npm run bench:audit)', body);
    console.log(body);
    if (!results.every((r) => r.identical)) process.exitCode = 1;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
