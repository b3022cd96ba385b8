/**
 * `npm run bench:quantum-scan`: what the cryptography inventory adds to a scan of the same
 * repository (docs/quantum.md#speed; target: no more than a fifth). A scan's work on a checkout
 * is extraction (in its worker thread) and import reachability; the inventory is the extra step.
 * All are timed on one checkout, in the same run: this repository's own tree (copied without
 * node_modules), or `BENCH_QUANTUM_TREE` when set. The clone, the database writes and the events
 * a real scan also does are left out, so the share is an upper bound.
 *
 * CPU time (the process's, worker threads included), median of BENCH_RUNS runs (default 3).
 * Extraction is timed as production runs it: the built worker (dist/, `npm run build`, which
 * this bench runs first). From sources the worker thread first loads tsx and compiles the
 * extractors, about 300 ms of CPU no deployment spends; that figure is printed too, beside the
 * old ratio computed with it, but it is not the scan's work. The inventory is also timed without
 * test/support/quantum-corpus (this repository's labelled corpus: 345 small files in eight
 * languages, nearly all parsed), which no ordinary repository holds. Prints the figures;
 * docs/benchmarks.md is written by hand from them (bench:packages rewrites that page).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { collectInventory, type QuantumInventory } from '../src/domains/quantum/inventory';
import type { ExtractWorkerInput } from '../src/domains/scans/dependencies/extract-worker';
import {
  DEFAULT_EXTRACTION_LIMITS,
  extractInWorker,
} from '../src/domains/scans/dependencies/extraction';
import { computeReachability } from '../src/domains/scans/run/reachability';
import type { TreeExtraction } from '../src/ecosystems/extract-tree';
import { BUILT_INVENTORY, builtInventoryThread } from './built-inventory';
import { median } from './report';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const BUILT_WORKER = join(process.cwd(), 'dist/src/domains/scans/dependencies/extract-worker.js');
const CORPUS = 'test/support/quantum-corpus';

function checkoutOfThisRepository(): { directory: string; remove: () => void } {
  const parent = mkdtempSync(join(tmpdir(), 'driftwatch-bench-quantum-'));
  const directory = join(parent, 'checkout');
  execFileSync('git', ['clone', '--quiet', '--depth', '1', `file://${process.cwd()}`, directory]);
  return { directory, remove: () => rmSync(parent, { recursive: true, force: true }) };
}

async function cpuOf<T>(work: () => Promise<T>): Promise<{ cpuMs: number; value: T }> {
  const cpu = process.cpuUsage();
  const value = await work();
  const used = process.cpuUsage(cpu);
  return { cpuMs: (used.user + used.system) / 1000, value };
}

/** The production extraction: the built worker over the tree, thread start included. */
function builtExtraction(root: string): Promise<void> {
  const workerData: ExtractWorkerInput = {
    root,
    maxFileBytes: DEFAULT_EXTRACTION_LIMITS.maxFileBytes,
    skipPaths: [],
  };
  return new Promise((resolve, reject) => {
    const worker = new Worker(BUILT_WORKER, { workerData, stdout: false, stderr: false });
    worker.on('message', (message: { type: string }) => {
      if (message.type === 'done') void worker.terminate().then(() => resolve());
    });
    worker.on('error', reject);
  });
}

/**
 * A scan's duration on the checkout (wall ms), as the scan job runs it: extraction then
 * reachability, and with the inventory its thread started beside extraction. The second figure
 * over the first is what the inventory adds to the scan's duration.
 */
async function scanDurations(
  directory: string,
  files: TreeExtraction['files'],
): Promise<{ plain: number; withInventory: number }> {
  const wall = async (work: () => Promise<unknown>) => {
    const started = performance.now();
    await work();
    return performance.now() - started;
  };
  const plain = await wall(async () => {
    await builtExtraction(directory);
    await computeReachability(directory, files);
  });
  const withInventory = await wall(async () => {
    const inventory = builtInventoryThread(directory);
    await builtExtraction(directory);
    await computeReachability(directory, files);
    await inventory;
  });
  return { plain, withInventory };
}

function describe(found: QuantumInventory): string {
  const mib = (found.bytesRead / 1024 / 1024).toFixed(1);
  return `${found.filesRead} files, ${mib} MiB read, ${found.findings.length} findings, ${found.algorithms.length} algorithm uses, ${found.certificates.length} certificates`;
}

const percent = (part: number, whole: number) => `${((part / whole) * 100).toFixed(1)} %`;

type Figures = Record<
  | 'extraction'
  | 'fromSources'
  | 'reachability'
  | 'inventory'
  | 'withoutCorpus'
  | 'scanWall'
  | 'scanWithInventoryWall',
  number[]
>;

/** Prints the medians and the shares (docs/benchmarks.md is written by hand from them). */
function report(
  directory: string,
  figures: Figures,
  built: boolean,
  summary: string,
  lessSummary: string,
): void {
  const m = Object.fromEntries(
    Object.entries(figures).map(([name, values]) => [name, values.length ? median(values) : 0]),
  ) as Record<keyof Figures, number>;
  const scan = (built ? m.extraction : m.fromSources) + m.reachability;
  console.log(`tree: ${directory}`);
  console.log(`inventory: ${summary}`);
  console.log(`CPU ms, median of ${RUNS} runs`);
  console.log(
    built
      ? `extraction (built worker, as deployed): ${m.extraction.toFixed(0)}`
      : 'extraction (built worker): not measured, dist/ missing',
  );
  console.log(`extraction (worker from sources, tsx in the thread): ${m.fromSources.toFixed(0)}`);
  console.log(`reachability: ${m.reachability.toFixed(0)}`);
  console.log(`scan work (extraction + reachability): ${scan.toFixed(0)}`);
  console.log(
    `inventory: ${m.inventory.toFixed(0)}  -> ${percent(m.inventory, scan)} of scan work`,
  );
  if (figures.withoutCorpus.length > 0) {
    console.log(
      `inventory without ${CORPUS}: ${m.withoutCorpus.toFixed(0)}  -> ${percent(m.withoutCorpus, scan)} (${lessSummary})`,
    );
  }
  if (figures.scanWall.length > 0) {
    const added = m.scanWithInventoryWall - m.scanWall;
    console.log(
      `scan duration (wall ms, built threads): ${m.scanWall.toFixed(0)} without the inventory, ${m.scanWithInventoryWall.toFixed(0)} with its thread beside extraction -> adds ${added.toFixed(0)} ms, ${percent(added, m.scanWall)}`,
    );
  }
  const devScan = m.fromSources + m.reachability;
  console.log(
    `(old method, worker from sources: scan work ${devScan.toFixed(0)}, inventory ${percent(m.inventory, devScan)})`,
  );
}

async function main(): Promise<void> {
  execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'ignore' });
  const own = process.env.BENCH_QUANTUM_TREE ? null : checkoutOfThisRepository();
  const directory = process.env.BENCH_QUANTUM_TREE ?? own?.directory ?? '';
  const built = existsSync(BUILT_WORKER);
  try {
    const figures: Figures = {
      extraction: [],
      fromSources: [],
      reachability: [],
      inventory: [],
      withoutCorpus: [],
      scanWall: [],
      scanWithInventoryWall: [],
    };
    let summary = '';
    let lessSummary = '';
    for (let run = 0; run < RUNS; run += 1) {
      const sources = await cpuOf(() =>
        extractInWorker(directory, DEFAULT_EXTRACTION_LIMITS, new AbortController().signal),
      );
      figures.fromSources.push(sources.cpuMs);
      if (built && existsSync(BUILT_INVENTORY)) {
        const durations = await scanDurations(directory, sources.value.files);
        figures.scanWall.push(durations.plain);
        figures.scanWithInventoryWall.push(durations.withInventory);
      }
      if (built) figures.extraction.push((await cpuOf(() => builtExtraction(directory))).cpuMs);
      const files = sources.value.files;
      const reachability = await cpuOf(() => computeReachability(directory, files));
      figures.reachability.push(reachability.cpuMs);
      const dependencies = files.flatMap((file) =>
        file.dependencies.map((d) => ({ ecosystem: file.ecosystem, name: d.name, purl: d.purl })),
      );
      const inventory = await cpuOf(() => collectInventory(directory, dependencies, new Date()));
      figures.inventory.push(inventory.cpuMs);
      summary = describe(inventory.value);
      const corpus = join(directory, CORPUS);
      if (existsSync(corpus)) {
        // Moved out of the tree (same file system), and back after.
        const aside = `${directory}-corpus-aside`;
        renameSync(corpus, aside);
        try {
          const less = await cpuOf(() => collectInventory(directory, dependencies, new Date()));
          figures.withoutCorpus.push(less.cpuMs);
          lessSummary = describe(less.value);
        } finally {
          renameSync(aside, corpus);
        }
      }
    }
    report(directory, figures, built, summary, lessSummary);
  } finally {
    own?.remove();
  }
}

await main();
