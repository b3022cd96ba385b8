/**
 * `npm run bench:quantum-thread`: the CPU one scan's inventory thread costs as deployed, where
 * each scan starts a new thread (src/domains/quantum/inventory-thread.ts): the built worker
 * (dist/, scripts/build.mjs, which this bench runs first) started for several scans in a row in
 * one process, on a checkout of this repository (or `BENCH_QUANTUM_TREE`). bench:quantum-scan
 * times the inventory warm, in its own thread, run after run; a new thread also loads its code
 * and compiles and optimises tree-sitter's WebAssembly (the runtime and the grammars) again,
 * which that figure leaves out.
 *
 * Two kinds of process, alternated in the same run (each a fresh process, since what is kept is
 * per process): "new threads" starts the threads as they are; "kept modules" first compiles the
 * tree-sitter modules in the process and keeps them (keepTreeSitterCompiled, what the service
 * does before it starts a thread), so that each thread is handed the code compiled and optimised
 * already. CPU time of the process, worker threads included (V8 compiles on background threads).
 * Prints the figures; docs/benchmarks.md is written by hand from them.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { collectCodeInventory } from '../src/domains/quantum/inventory';
import { keepTreeSitterCompiled } from '../src/domains/quantum/inventory-thread';
import { builtInventoryThread } from './built-inventory';
import { median } from './report';

const SCANS = Number(process.env.BENCH_RUNS ?? 4);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const MODES = ['new threads', 'kept modules'] as const;
type Mode = (typeof MODES)[number];

function cpuMs(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
}

/** In a child process: the CPU of each of SCANS threads in a row, and the warm in-thread run. */
async function child(mode: Mode, directory: string): Promise<void> {
  if (mode === 'kept modules') await keepTreeSitterCompiled();
  const threads: number[] = [];
  for (let scan = 0; scan < SCANS; scan += 1) {
    const since = process.cpuUsage();
    await builtInventoryThread(directory);
    threads.push(cpuMs(since));
  }
  const warm: number[] = [];
  for (let run = 0; run < 3; run += 1) {
    const since = process.cpuUsage();
    await collectCodeInventory(directory, new Date());
    warm.push(cpuMs(since));
  }
  process.stdout.write(JSON.stringify({ threads, warm: median(warm.slice(1)) }));
}

function inChildProcess(mode: Mode, directory: string): { threads: number[]; warm: number } {
  const output = execFileSync(
    process.execPath,
    ['--import', 'tsx', 'bench/quantum-thread.ts', 'child', mode, directory],
    { encoding: 'utf8', maxBuffer: 1024 * 1024 },
  );
  return JSON.parse(output);
}

function checkoutOfThisRepository(): { directory: string; remove: () => void } {
  const parent = mkdtempSync(join(tmpdir(), 'driftwatch-bench-quantum-thread-'));
  const directory = join(parent, 'checkout');
  execFileSync('git', ['clone', '--quiet', '--depth', '1', `file://${process.cwd()}`, directory]);
  return { directory, remove: () => rmSync(parent, { recursive: true, force: true }) };
}

async function main(): Promise<void> {
  execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'ignore' });
  const own = process.env.BENCH_QUANTUM_TREE ? null : checkoutOfThisRepository();
  const directory = process.env.BENCH_QUANTUM_TREE ?? own?.directory ?? '';
  try {
    const first: Record<Mode, number[]> = { 'new threads': [], 'kept modules': [] };
    const later: Record<Mode, number[]> = { 'new threads': [], 'kept modules': [] };
    const warm: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const mode of MODES) {
        const measured = inChildProcess(mode, directory);
        first[mode].push(measured.threads[0] ?? 0);
        later[mode].push(...measured.threads.slice(1));
        warm.push(measured.warm);
      }
    }
    console.log(`tree: ${directory}`);
    console.log(
      `CPU ms per scan's inventory thread (${SCANS} scans per process, ${ROUNDS} rounds)`,
    );
    for (const mode of MODES) {
      const rest = median(later[mode]);
      console.log(
        `${mode}: first thread ${median(first[mode]).toFixed(0)}, each later one ${rest.toFixed(0)} (median of ${later[mode].length})`,
      );
    }
    const saved = 1 - median(later['kept modules']) / median(later['new threads']);
    console.log(`kept modules save ${(saved * 100).toFixed(0)} % of a later thread's CPU`);
    console.log(
      `(warm, run again in one thread, as bench:quantum-scan times it: ${median(warm).toFixed(0)})`,
    );
  } finally {
    own?.remove();
  }
}

const [role, mode, directory] = process.argv.slice(2);
if (role === 'child' && (mode === 'new threads' || mode === 'kept modules') && directory) {
  await child(mode, directory);
} else {
  await main();
}
