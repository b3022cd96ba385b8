/**
 * `npm run bench:quantum-scan`: what the cryptography inventory adds to a scan of the same
 * repository (docs/quantum.md; target: no more than a fifth). A scan's work on a checkout is
 * extraction (in its worker thread, as the scan runs it) and import reachability; the inventory
 * is the extra step. Both are timed on one checkout, in the same run: this repository's own
 * tree (about a thousand TypeScript files and the lockfile), copied without node_modules, or
 * `BENCH_QUANTUM_TREE` when set. The clone, the database writes and the events a real scan also
 * does are left out, so the share is an upper bound. CPU time (the process's, worker thread
 * included) is printed beside wall time: on a loaded machine it is the figure that compares.
 * Prints the figures; docs/benchmarks.md is written by hand from them (bench:packages rewrites
 * that page).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { collectInventory } from '../src/domains/quantum/inventory';
import {
  DEFAULT_EXTRACTION_LIMITS,
  extractInWorker,
} from '../src/domains/scans/dependencies/extraction';
import { computeReachability } from '../src/domains/scans/run/reachability';
import { median } from './report';

const RUNS = Number(process.env.BENCH_RUNS ?? 7);

function checkoutOfThisRepository(): { directory: string; remove: () => void } {
  const parent = mkdtempSync(join(tmpdir(), 'driftwatch-bench-quantum-'));
  const directory = join(parent, 'checkout');
  execFileSync('git', ['clone', '--quiet', '--depth', '1', `file://${process.cwd()}`, directory]);
  return { directory, remove: () => rmSync(parent, { recursive: true, force: true }) };
}

async function time<T>(work: () => Promise<T>): Promise<{ ms: number; cpuMs: number; value: T }> {
  const started = performance.now();
  const cpu = process.cpuUsage();
  const value = await work();
  const used = process.cpuUsage(cpu);
  return { ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000, value };
}

async function main(): Promise<void> {
  const own = process.env.BENCH_QUANTUM_TREE ? null : checkoutOfThisRepository();
  const directory = process.env.BENCH_QUANTUM_TREE ?? own?.directory ?? '';
  try {
    const scanMs: number[] = [];
    const inventoryMs: number[] = [];
    const scanCpuMs: number[] = [];
    const inventoryCpuMs: number[] = [];
    let summary = '';
    for (let run = 0; run < RUNS; run += 1) {
      const extraction = await time(() =>
        extractInWorker(directory, DEFAULT_EXTRACTION_LIMITS, new AbortController().signal),
      );
      const reachability = await time(() => computeReachability(directory, extraction.value.files));
      const dependencies = extraction.value.files.flatMap((file) =>
        file.dependencies.map((d) => ({ ecosystem: file.ecosystem, name: d.name, purl: d.purl })),
      );
      const inventory = await time(() => collectInventory(directory, dependencies, new Date()));
      scanMs.push(extraction.ms + reachability.ms);
      inventoryMs.push(inventory.ms);
      scanCpuMs.push(extraction.cpuMs + reachability.cpuMs);
      inventoryCpuMs.push(inventory.cpuMs);
      const found = inventory.value;
      summary = `${found.filesRead} files, ${(found.bytesRead / 1024 / 1024).toFixed(1)} MiB read, ${found.findings.length} findings, ${found.certificates.length} certificates`;
    }
    const scan = median(scanMs);
    const added = median(inventoryMs);
    console.log(`tree: ${directory} (${summary})`);
    console.log(`extraction + reachability (median of ${RUNS}): ${scan.toFixed(0)} ms`);
    console.log(`inventory (median of ${RUNS}): ${added.toFixed(0)} ms`);
    console.log(`inventory / scan work: ${((added / scan) * 100).toFixed(1)} %`);
    const scanCpu = median(scanCpuMs);
    const addedCpu = median(inventoryCpuMs);
    console.log(`CPU: scan work ${scanCpu.toFixed(0)} ms, inventory ${addedCpu.toFixed(0)} ms`);
    console.log(`inventory / scan work (CPU): ${((addedCpu / scanCpu) * 100).toFixed(1)} %`);
  } finally {
    own?.remove();
  }
}

await main();
