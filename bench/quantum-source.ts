/**
 * `npm run bench:quantum-source`: megabytes of source per second that scanSourceTree reads on
 * one core (the scan is single-threaded), with and without the token prefilter, over two trees
 * built in a temporary folder:
 *
 * - corpus: the detectors' labelled corpus copied many times: every file holds crypto tokens, so
 *   nearly every file is parsed (the worst case for the prefilter);
 * - mixed: real JavaScript and TypeScript packages copied from node_modules (folders renamed so
 *   the walk does not take them for vendored or build output), the project's own src/, and the
 *   system's Python packages when present: most files never reach the parser.
 *
 * Both wall-clock and CPU time are reported (CPU time is what one core spends, independent of
 * other load on the machine). Target: at least 5 MB/s on the mixed tree. Prints the figures; the
 * lead records them in docs/benchmarks.md.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { type SourceScanResult, scanSourceTree } from '../src/cryptography/source/scan';
import { QUANTUM_CORPUS } from '../test/support/quantum-corpus';
import { median } from './report';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const CORPUS_COPIES = Number(process.env.BENCH_CORPUS_COPIES ?? 40);
const ROOT = process.cwd();

/** Packages whose sources make a realistic tree: servers, clients, parsers, utilities. */
const PACKAGES = [
  'fastify',
  'kysely',
  'ajv',
  'pg',
  'undici',
  'pino',
  'yaml',
  'fast-xml-parser',
  'commander',
  'dependency-cruiser',
  'nodemailer',
  'ioredis',
  '@fastify/swagger-ui',
  'cron-parser',
  'semver',
  'zod',
  'chai',
  'debug',
];

/** Folder names the scan skips as build output or vendored code: renamed in the copy. */
const RENAME = new Set(['dist', 'build', 'out', 'target', 'coverage', 'vendor']);

function copyRenamed(from: string, to: string): void {
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    if (entry.isSymbolicLink() || entry.name === 'node_modules') continue;
    const source = join(from, entry.name);
    if (entry.isDirectory()) {
      copyRenamed(source, join(to, RENAME.has(entry.name) ? `${entry.name}-src` : entry.name));
    } else if (entry.isFile()) cpSync(source, join(to, entry.name));
  }
}

function corpusTree(folder: string): void {
  for (let copy = 0; copy < CORPUS_COPIES; copy += 1) {
    cpSync(QUANTUM_CORPUS, join(folder, `copy-${String(copy).padStart(3, '0')}`), {
      recursive: true,
    });
  }
}

function mixedTree(folder: string): string[] {
  const used: string[] = [];
  for (const name of PACKAGES) {
    const path = join(ROOT, 'node_modules', name);
    if (!existsSync(path)) continue;
    copyRenamed(path, join(folder, 'packages', basename(name)));
    used.push(name);
  }
  copyRenamed(join(ROOT, 'src'), join(folder, 'service'));
  const python = '/usr/lib/python3/dist-packages';
  if (existsSync(python)) {
    copyRenamed(python, join(folder, 'python'));
    used.push('python3 dist-packages');
  }
  return used;
}

function cpuMilliseconds(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

interface Measured {
  result: SourceScanResult;
  wallMs: number;
  cpuMs: number;
}

async function measure(folder: string, prefilter: boolean): Promise<Measured> {
  await scanSourceTree(folder, { prefilter }); // warm: grammars loaded, file cache hot
  const walls: number[] = [];
  const cpus: number[] = [];
  let result: SourceScanResult | undefined;
  for (let run = 0; run < RUNS; run += 1) {
    const wall = performance.now();
    const cpu = cpuMilliseconds();
    result = await scanSourceTree(folder, { prefilter, maxFiles: 200_000, maxTotalBytes: 2e9 });
    cpus.push(cpuMilliseconds() - cpu);
    walls.push(performance.now() - wall);
  }
  if (!result) throw new Error('no run');
  return { result, wallMs: median(walls), cpuMs: median(cpus) };
}

function line(tree: string, prefilter: boolean, measured: Measured): string {
  const { result, wallMs, cpuMs } = measured;
  const megabytes = result.bytesRead / 1e6;
  const uses = result.files.reduce((sum, file) => sum + file.uses.length, 0);
  return [
    tree.padEnd(7),
    (prefilter ? 'on' : 'off').padEnd(10),
    `${megabytes.toFixed(1)} MB`.padStart(9),
    String(result.filesRead).padStart(7),
    String(result.filesParsed).padStart(7),
    String(uses).padStart(6),
    `${(megabytes / (wallMs / 1000)).toFixed(2)}`.padStart(10),
    `${(megabytes / (cpuMs / 1000)).toFixed(2)}`.padStart(9),
  ].join(' ');
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'bench-quantum-source-'));
  try {
    const corpus = join(work, 'corpus');
    const mixed = join(work, 'mixed');
    corpusTree(corpus);
    const used = mixedTree(mixed);
    console.log(`corpus: the labelled corpus x${CORPUS_COPIES}; mixed: ${used.join(', ')}, src/`);
    console.log(`median of ${RUNS} runs after a warm-up run; MB/s of source read, one core\n`);
    console.log('tree    prefilter    source   files  parsed   uses  wall MB/s  CPU MB/s');
    for (const [name, folder] of [
      ['corpus', corpus],
      ['mixed', mixed],
    ] as const) {
      for (const prefilter of [true, false]) {
        console.log(line(name, prefilter, await measure(folder, prefilter)));
      }
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
