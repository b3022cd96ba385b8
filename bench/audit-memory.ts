/**
 * `npm run bench:audit-memory`: wall time and peak RSS of the whole `driftwatch audit` process on
 * a generated tree of BENCH_AUDIT_PROJECTS (default 1,600) Composer projects (a composer.json and a composer.lock
 * each, about 125 findings per lock; bench/audit-memory-tree.ts) and on a small ordinary tree
 * (two projects), in --json and table output. Section "Audit memory (npm run bench:audit-memory)".
 *
 * Each variant is this checkout, plus the checkout named by BENCH_AUDIT_BASELINE (an older commit,
 * e.g. `git archive <commit> | tar -x -C /tmp/dw-base` with node_modules linked): its cli/offline.ts is
 * bundled here with the options cli/fast-start.cjs uses, into <checkout>/tmp/, so the variants
 * never rebuild each other's bundle in the shared node_modules/.cache. A small runner loads the
 * bundle, runs `audit` and reports the process's peak RSS (getrusage maxRSS) on exit; stdout goes
 * to a file, whose digest must be the same for every variant (identical reports). Runs are
 * interleaved (variant by variant inside each round) so load spikes hit both alike.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildSync } from 'esbuild';
import { generateAdvisories, generateComposerTree } from './audit-memory-tree';
import { median, writeBenchmarkSection } from './report';

const PROJECTS = Number(process.env.BENCH_AUDIT_PROJECTS ?? 1600);
const BIG_RUNS = Number(process.env.BENCH_RUNS ?? 3);
const SMALL_RUNS = Number(process.env.BENCH_SMALL_RUNS ?? 25);

const RUNNER = `'use strict';
const { writeSync } = require('node:fs');
const [bundle, ...argv] = process.argv.slice(2);
process.on('exit', () => {
  const usage = process.resourceUsage();
  writeSync(2, '\\nBENCH_MAX_RSS_KB ' + usage.maxRSS + ' CPU_US ' + (usage.userCPUTime + usage.systemCPUTime) + '\\n');
});
require(bundle).offlineCommands.audit(argv, 'bench').then((code) => { process.exitCode = code; });
`;

interface Variant {
  label: string;
  bundle: string;
}

function bundleOf(label: string, root: string): Variant {
  const dir = join(root, 'tmp', 'bench-audit-memory');
  mkdirSync(dir, { recursive: true });
  const bundle = join(dir, 'offline.cjs');
  buildSync({
    entryPoints: [join(root, 'cli', 'offline.ts')],
    absWorkingDir: root,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    minifyWhitespace: true,
    minifySyntax: true,
    outfile: bundle,
    logLevel: 'silent',
    define: { 'import.meta.url': '__dwImportMetaUrl' },
    banner: { js: "const __dwImportMetaUrl=require('url').pathToFileURL(__filename).href;" },
  });
  return { label, bundle };
}

interface Measured {
  ms: number;
  maxRssMb: number;
  cpuMs: number;
  code: number | null;
  digest: string;
}

function runAudit(
  runner: string,
  variant: Variant,
  args: string[],
  out: string,
): Promise<Measured> {
  return new Promise((done, fail) => {
    const fd = openSync(out, 'w');
    const started = performance.now();
    const child = spawn(process.execPath, [runner, variant.bundle, ...args], {
      stdio: ['ignore', fd, 'pipe'],
    });
    let stderr = '';
    child.stderr?.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', fail);
    child.on('close', (code) => {
      const ms = performance.now() - started;
      closeSync(fd);
      const rss = /BENCH_MAX_RSS_KB (\d+) CPU_US (\d+)/.exec(stderr);
      if (!rss) {
        fail(new Error(`${variant.label}: no RSS report (exit ${code}): ${stderr.slice(0, 500)}`));
        return;
      }
      const digest = createHash('sha256').update(readFileSync(out)).digest('hex');
      done({ ms, maxRssMb: Number(rss[1]) / 1024, cpuMs: Number(rss[2]) / 1000, code, digest });
    });
  });
}

interface Case {
  name: string;
  tree: string;
  json: boolean;
  runs: number;
}

async function main(): Promise<void> {
  const variants = [bundleOf('this checkout', process.cwd())];
  const baseline = process.env.BENCH_AUDIT_BASELINE;
  if (baseline) variants.unshift(bundleOf(`baseline (${baseline})`, resolve(baseline)));
  const work = mkdtempSync(join(tmpdir(), 'dw-bench-audit-memory-'));
  try {
    const runner = join(work, 'runner.cjs');
    writeFileSync(runner, RUNNER);
    const advisories = generateAdvisories();
    const osv = join(work, 'advisories.jsonl');
    writeFileSync(osv, advisories.jsonl);
    const big = generateComposerTree(join(work, 'big'), PROJECTS);
    const small = generateComposerTree(join(work, 'small'), 2);
    const cases: Case[] = [
      { name: `${PROJECTS} locks, --json`, tree: join(work, 'big'), json: true, runs: BIG_RUNS },
      { name: `${PROJECTS} locks, table`, tree: join(work, 'big'), json: false, runs: BIG_RUNS },
      { name: '2 locks, --json', tree: join(work, 'small'), json: true, runs: SMALL_RUNS },
      { name: '2 locks, table', tree: join(work, 'small'), json: false, runs: SMALL_RUNS },
    ];
    const loadAtStart = loadavg()[0] ?? 0;
    const rows: string[] = [];
    let identical = true;
    for (const c of cases) {
      const results = variants.map(() => [] as Measured[]);
      for (let run = 0; run < c.runs; run++) {
        for (const [v, variant] of variants.entries()) {
          const args = [c.tree, '--osv', osv, '--no-cache', ...(c.json ? ['--json'] : [])];
          results[v]!.push(await runAudit(runner, variant, args, join(work, `out-${v}`)));
        }
      }
      const digests = new Set(results.flat().map((m) => m.digest));
      identical &&= digests.size === 1;
      for (const [v, variant] of variants.entries()) {
        const measured = results[v]!;
        const line = `| ${c.name} | ${variant.label} | ${median(measured.map((m) => m.ms)).toFixed(0)} | ${median(measured.map((m) => m.cpuMs)).toFixed(0)} | ${Math.max(...measured.map((m) => m.maxRssMb)).toFixed(0)} | ${median(measured.map((m) => m.maxRssMb)).toFixed(0)} | ${measured[0]!.code} |`;
        rows.push(line);
        console.log(line);
      }
    }
    const loadAtEnd = loadavg()[0] ?? 0;
    const body = [
      `Generated trees (bench/audit-memory-tree.ts): ${PROJECTS} Composer projects (a composer.json and a composer.lock of 105 real Packagist names each, ${big.expectedFindings} findings) and 2 projects (4 files, ${small.expectedFindings} findings), against ${advisories.records} generated advisories (--no-cache). Whole \`driftwatch audit\` processes (the bundle of cli/offline.ts, built as cli/fast-start.cjs builds it), stdout to a file; median wall time, CPU time and peak RSS (getrusage) over ${BIG_RUNS} runs of the large tree and ${SMALL_RUNS} of the small one, variants interleaved; Node ${process.version}; load average ${loadAtStart.toFixed(2)} at start, ${loadAtEnd.toFixed(2)} at end (2 cores, shared with other work); measured ${new Date().toISOString().slice(0, 10)}. Reports byte-identical across variants: **${identical ? 'yes' : 'NO'}**.`,
      '',
      '| tree, output | code | median wall ms | median CPU ms (user + system) | max peak RSS MiB | median peak RSS MiB | exit |',
      '|---|---|---:|---:|---:|---:|---:|',
      ...rows,
    ].join('\n');
    console.log(body);
    if (process.env.BENCH_NO_WRITE !== '1') {
      writeBenchmarkSection('Audit memory (npm run bench:audit-memory)', body);
    }
    if (!identical) process.exitCode = 1;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
