/**
 * `npm run bench:extract`: extraction time and memory of the largest corpus files against a
 * plain parse of the same file (JSON.parse, YAML parse, TOML parse, the yarn v1 parser, a line
 * split) in the same run, plus the slowest file of the whole corpus. Targets: a 2,700-entry npm
 * lockfile extracted in at most 3x its JSON.parse time; every corpus file in under a second.
 *
 * The corpus has no 2,700-entry npm lockfile, so one is synthesised deterministically from the
 * real ones (see `syntheticLockfile`). Results go to docs/benchmarks.md, section "Extraction".
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import yarnLockfile from '@yarnpkg/lockfile';
import { parse as parseToml } from 'smol-toml';
import { parse as parseYaml } from 'yaml';
import { ecosystems } from '../src/ecosystems/ecosystem-list';
import type { ExtractionResult, Extractor } from '../src/ecosystems/types';
import { sharedDataDir } from '../test/support/shared-data';
import { extractInputFor } from './extract-input';
import { writeBenchmarkSection } from './report';

const RUNS = Number(process.env.BENCH_RUNS ?? 31);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 5);
const SYNTHETIC_ENTRIES = 2700;

// A callable gc without restarting node with --expose-gc (the npm script runs plain tsx).
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

type Baseline = { name: string; parse: (text: string) => unknown };
const BASELINES: Record<string, Baseline> = {
  json: { name: 'JSON.parse', parse: (t) => JSON.parse(t) },
  yaml: { name: 'yaml.parse', parse: (t) => parseYaml(t, { maxAliasCount: 100 }) },
  toml: { name: 'smol-toml parse', parse: (t) => parseToml(t) },
  yarn1: { name: '@yarnpkg/lockfile parse', parse: (t) => yarnLockfile.parse(t) },
  lines: { name: 'split lines', parse: (t) => t.split('\n').map((l) => l.split('=')) },
};

/** [corpus path, baseline]: the largest file of each lockfile format. */
const SUBJECTS: Array<[string, keyof typeof BASELINES]> = [
  ['lockfiles/storage/package-lock.json', 'json'],
  ['lockfiles/BookStack/package-lock.json', 'json'],
  ['lockfiles/jest/yarn.lock', 'yaml'],
  ['lockfiles/webpack/yarn.lock', 'yarn1'],
  ['lockfiles/prometheus/web/ui/react-app/pnpm-lock.yaml', 'yaml'],
  ['lockfiles/uv/Cargo.lock', 'toml'],
  ['lockfiles/uv/uv.lock', 'toml'],
  ['lockfiles/poetry/poetry.lock', 'toml'],
  ['lockfiles/pipenv/Pipfile.lock', 'json'],
  ['lockfiles/dd-trace-java/dd-java-agent/instrumentation/mule-4.5/gradle.lockfile', 'lines'],
  ['lockfiles/BookStack/composer.lock', 'json'],
  ['lockfiles/server/src/Api/packages.lock.json', 'json'],
  ['lockfiles/maybe/Gemfile.lock', 'lines'],
  ['lockfiles/prometheus/go.mod', 'lines'],
];

const claims = [
  ...ecosystems.flatMap((e) => e.extractors.filter((x) => x.kind === 'lockfile')),
  ...ecosystems.flatMap((e) => e.extractors.filter((x) => x.kind !== 'lockfile')),
];
const claim = (path: string): Extractor | undefined => claims.find((x) => x.matches(path));

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/**
 * Median wall times of `a` and `b` over RUNS runs each after WARMUP runs, the two interleaved so
 * that load from other processes on the machine hits both alike.
 */
function timePair(a: () => unknown, b: () => unknown): [number, number] {
  for (let i = 0; i < WARMUP; i++) {
    a();
    b();
  }
  const samples: [number[], number[]] = [[], []];
  for (let i = 0; i < RUNS; i++) {
    for (const [k, fn] of [a, b].entries()) {
      const started = performance.now();
      fn();
      samples[k]!.push(performance.now() - started);
    }
  }
  return [median(samples[0]), median(samples[1])];
}

/**
 * Heap growth of one call: `peak` is the heap right after the call before any collection (the
 * garbage it made included, an upper bound of its peak), `retained` what its result keeps.
 */
function memory(fn: () => unknown): { peak: number; retained: number } {
  gc();
  const before = process.memoryUsage().heapUsed;
  const result = fn();
  const peak = process.memoryUsage().heapUsed - before;
  gc();
  const retained = process.memoryUsage().heapUsed - before;
  if (result === undefined) throw new Error('unreachable');
  return { peak: Math.max(peak, retained), retained };
}

/**
 * A 2,700-entry package-lock.json v3 made from the real v2/v3 lockfiles: their `packages` are
 * merged in a fixed order, every package of the i-th source renamed `<name>-dw<i>` (in paths and
 * in dependency maps, so the tree stays consistent), and the merge cut at 2,700 entries.
 */
function syntheticLockfile(data: string): string {
  const sources = [
    'lockfiles/storage/package-lock.json',
    'lockfiles/BookStack/package-lock.json',
    'generated/express-app/package-lock.json',
    'lockfiles/server/src/Admin/package-lock.json',
    'generated/old-vulnerable/package-lock.json',
  ];
  type Entry = Record<string, unknown> & { [k: string]: unknown };
  const packages: Record<string, Entry> = {};
  const rootDeps: Record<string, string> = {};
  let count = 0;
  sources.forEach((source, i) => {
    const lock = JSON.parse(readFileSync(join(data, source), 'utf8')) as {
      packages: Record<string, Entry>;
    };
    const rename = (name: string) => (i === 0 ? name : `${name}-dw${i}`);
    const renamePath = (path: string) =>
      path.replace(
        /node_modules\/((?:@[^/]+\/)?[^/]+)/g,
        (_, name: string) => `node_modules/${rename(name)}`,
      );
    for (const [path, entry] of Object.entries(lock.packages)) {
      if (path === '' || !path.startsWith('node_modules/') || count >= SYNTHETIC_ENTRIES) continue;
      const copy: Entry = { ...entry };
      for (const key of [
        'dependencies',
        'devDependencies',
        'optionalDependencies',
        'peerDependencies',
      ]) {
        const deps = entry[key] as Record<string, string> | undefined;
        if (deps)
          copy[key] = Object.fromEntries(Object.entries(deps).map(([n, r]) => [rename(n), r]));
      }
      const newPath = renamePath(path);
      packages[newPath] = copy;
      if (!newPath.slice('node_modules/'.length).includes('node_modules/') && !entry.dev) {
        rootDeps[newPath.slice('node_modules/'.length)] = `^${entry.version as string}`;
      }
      count++;
    }
  });
  const root = { name: 'synthetic', version: '1.0.0', dependencies: rootDeps };
  return JSON.stringify(
    {
      name: 'synthetic',
      version: '1.0.0',
      lockfileVersion: 3,
      requires: true,
      packages: { '': root, ...packages },
    },
    null,
    2,
  );
}

interface Row {
  file: string;
  size: number;
  entries: number;
  baseline: string;
  baselineMs: number;
  extractMs: number;
  baselinePeak: number;
  extractPeak: number;
  retained: number;
}

function measure(label: string, root: string, path: string, text: string, baseline: Baseline): Row {
  const extractor = claim(path);
  if (!extractor) throw new Error(`no extractor claims ${path}`);
  const input = extractInputFor(root, path, text);
  const run = (): ExtractionResult => extractor.extract(input);
  const result = run();
  if (result.errors.length > 0)
    throw new Error(`${label}: ${JSON.stringify(result.errors.slice(0, 3))}`);
  const [baselineMs, extractMs] = timePair(() => baseline.parse(text), run);
  const baseMem = memory(() => baseline.parse(text));
  const extractMem = memory(run);
  return {
    file: label,
    size: Buffer.byteLength(text),
    entries: result.dependencies.length,
    baseline: baseline.name,
    baselineMs,
    extractMs,
    baselinePeak: baseMem.peak,
    extractPeak: extractMem.peak,
    retained: extractMem.retained,
  };
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
const ms = (value: number) => (value < 10 ? value.toFixed(2) : value.toFixed(1));

async function main(): Promise<void> {
  if (!sharedDataDir) throw new Error('../shared/data is absent: nothing to benchmark');
  const data = sharedDataDir;
  const rows: Row[] = [];

  const synthetic = syntheticLockfile(data);
  const syntheticRow = measure(
    `synthetic package-lock.json v3 (${SYNTHETIC_ENTRIES} entries)`,
    data,
    'package-lock.json',
    synthetic,
    BASELINES.json!,
  );
  rows.push(syntheticRow);
  for (const [path, kind] of SUBJECTS) {
    const text = readFileSync(join(data, path), 'utf8');
    const root = join(data, path.split('/').slice(0, 2).join('/'));
    const rel = relative(root, join(data, path)).split('\\').join('/');
    rows.push(measure(path, root, rel, text, BASELINES[kind]!));
    console.error(`measured ${path}`);
  }

  // Every corpus file: the slowest single extraction (median of a few runs).
  let slowest = { file: '', ms: 0 };
  let files = 0;
  for (const group of ['lockfiles', 'generated']) {
    for (const absolute of walk(join(data, group))) {
      const rel = relative(join(data, group), absolute).split('\\').join('/');
      const [folder, ...rest] = rel.split('/');
      const path = rest.join('/');
      const extractor = path ? claim(path) : undefined;
      if (!extractor) continue;
      files++;
      const input = extractInputFor(
        join(data, group, folder!),
        path,
        readFileSync(absolute, 'utf8'),
      );
      const samples: number[] = [];
      for (let i = 0; i < 5; i++) {
        const started = performance.now();
        extractor.extract(input);
        samples.push(performance.now() - started);
      }
      const value = median(samples);
      if (value > slowest.ms) slowest = { file: `${group}/${rel}`, ms: value };
    }
  }

  const table = [
    '| file | KiB | entries | baseline | baseline ms | extract ms | ratio | baseline peak MiB | extract peak MiB | result MiB |',
    '|---|---:|---:|---|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.file} | ${Math.round(r.size / 1024)} | ${r.entries} | ${r.baseline} | ${ms(r.baselineMs)} | ${ms(r.extractMs)} | ${(r.extractMs / r.baselineMs).toFixed(2)}x | ${mb(r.baselinePeak)} | ${mb(r.extractPeak)} | ${mb(r.retained)} |`,
    ),
  ].join('\n');
  const ratio = syntheticRow.extractMs / syntheticRow.baselineMs;
  const body = `Median of ${RUNS} runs after ${WARMUP} warm-up runs (extraction and baseline interleaved), extractor called directly on text in memory (no disk I/O), the baseline parse of the same text in the same run; Node ${process.version}, measured ${new Date().toISOString().slice(0, 10)}. "peak" is heap growth right after one call before garbage collection (an upper bound of the working set); "result" is what the returned dependencies keep alive. Peak RSS of the whole run: ${mb(process.resourceUsage().maxRSS * 1024)} MiB.

The corpus has no 2,700-entry npm lockfile, so the first row is synthesised deterministically: the \`packages\` of the storage, BookStack, express-app, bitwarden Admin and old-vulnerable lockfiles merged in that order, each later source's package names suffixed \`-dw<i>\` in paths and dependency maps, cut at ${SYNTHETIC_ENTRIES} entries.

${table}

- 2,700-entry npm lockfile: **${ratio.toFixed(2)}x** its JSON.parse time (target <= 3x).
- Slowest of all ${files} corpus files: **${ms(slowest.ms)} ms** (\`${slowest.file}\`; target < 1000 ms).`;
  console.log(body);
  writeBenchmarkSection('Extraction (npm run bench:extract)', body);
}

await main();
