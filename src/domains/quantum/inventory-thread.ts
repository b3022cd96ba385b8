import { readFile } from 'node:fs/promises';
import type { Worker } from 'node:worker_threads';
import { startModuleWorker } from '../../core/module-worker';
import { treeSitterFiles } from '../../cryptography/source/grammars';
import type { CodeInventory } from './inventory';
import type { InventoryWorkerInput, InventoryWorkerMessage } from './inventory-worker';

export interface InventoryThreadOptions {
  /** Aborting terminates the thread (the scan failed, was cancelled, or lost its claim). */
  signal: AbortSignal;
  /** Above it the thread is terminated and the inventory is not taken. */
  timeoutMs: number;
  /** The thread's V8 heap (old generation) in MiB. */
  maxHeapMb: number;
}

/** The one call of the global WebAssembly API used here (the TypeScript lib declares none). */
declare const WebAssembly: { compile(bytes: Uint8Array): Promise<object> };

let compiledTreeSitter: Promise<readonly object[]> | undefined;

/**
 * Compiles tree-sitter's WebAssembly (the runtime and every grammar) once per process and keeps
 * the modules. While one is alive, V8 gives a thread that compiles the same bytes the same
 * compiled code, with the optimised tier that earlier threads produced, instead of compiling and
 * optimising it again: each inventory thread after the first costs about 1 s of CPU less on this
 * repository (docs/quantum.md#speed). A failure only loses that saving.
 */
export function keepTreeSitterCompiled(): Promise<readonly object[]> {
  compiledTreeSitter ??= Promise.all(
    treeSitterFiles().map(async (file) => WebAssembly.compile(await readFile(file))),
  ).catch(() => []);
  return compiledTreeSitter;
}

/** How long a thread with no inventory to read is kept for the next scan. */
export const INVENTORY_THREAD_IDLE_MS = 60_000;

interface KeptThread {
  worker: Worker;
  maxHeapMb: number;
  idleTimer?: NodeJS.Timeout;
}

/** Threads that finished an inventory and wait for the next (each reads one at a time). */
const idleThreads: KeptThread[] = [];
let threadsStarted = 0;

/** How many inventory threads this process started (tests: a kept thread is reused). */
export function inventoryThreadsStarted(): number {
  return threadsStarted;
}

/**
 * An idle thread with the same heap limit, or a new one. A thread is kept between scans because
 * starting one is most of an inventory's cost on an ordinary repository: loading its code and
 * warming up the parsers (docs/quantum.md#speed).
 */
function takeThread(maxHeapMb: number): KeptThread {
  const index = idleThreads.findIndex((thread) => thread.maxHeapMb === maxHeapMb);
  const kept = index === -1 ? undefined : idleThreads.splice(index, 1)[0];
  if (kept) {
    clearTimeout(kept.idleTimer);
    kept.worker.ref();
    return kept;
  }
  threadsStarted += 1;
  const worker = startModuleWorker(import.meta.url, 'inventory-worker', {
    resourceLimits: { maxOldGenerationSizeMb: maxHeapMb },
    stdout: false,
    stderr: false,
  });
  const thread: KeptThread = { worker, maxHeapMb };
  // An idle thread that dies (or is ended) leaves the list.
  worker.on('exit', () => {
    const at = idleThreads.indexOf(thread);
    if (at !== -1) idleThreads.splice(at, 1);
    clearTimeout(thread.idleTimer);
  });
  return thread;
}

/** Keeps a thread that read an inventory well for the next, for INVENTORY_THREAD_IDLE_MS. */
function giveBack(thread: KeptThread): void {
  thread.worker.removeAllListeners('message');
  thread.worker.removeAllListeners('error');
  // It must not keep the process alive while it waits.
  thread.worker.unref();
  thread.idleTimer = setTimeout(() => void thread.worker.terminate(), INVENTORY_THREAD_IDLE_MS);
  thread.idleTimer.unref();
  idleThreads.push(thread);
}

/** Ends the idle threads now (the service's stop; tests). */
export async function endIdleInventoryThreads(): Promise<void> {
  await Promise.all(idleThreads.splice(0).map((thread) => thread.worker.terminate()));
}

/**
 * Reads a checkout's code inventory in a worker thread (./inventory-worker.ts), so that a scan
 * overlaps it with extraction, which runs in its own thread too: on two cores the inventory adds
 * little to the scan's duration, and it never holds the service's event loop. The thread is kept
 * for the next scan when it succeeds, and ended when it fails, times out or is aborted (the
 * promise then rejects with the reason).
 */
export async function collectCodeInventoryInThread(
  directory: string,
  now: Date,
  options: InventoryThreadOptions,
): Promise<CodeInventory> {
  await keepTreeSitterCompiled();
  return inventoryInThread(directory, now, options);
}

function inventoryInThread(
  directory: string,
  now: Date,
  options: InventoryThreadOptions,
): Promise<CodeInventory> {
  if (options.signal.aborted) return Promise.reject(new Error('stopped with the scan'));
  const thread = takeThread(options.maxHeapMb);
  const { worker } = thread;
  return new Promise<CodeInventory>((resolve, reject) => {
    let settled = false;
    const end = (kept: boolean, outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal.removeEventListener('abort', onAbort);
      worker.off('exit', onExit);
      if (kept) giveBack(thread);
      else void worker.terminate();
      outcome();
    };
    const fail = (reason: string) => end(false, () => reject(new Error(reason)));
    const onAbort = () => fail('stopped with the scan');
    const onExit = (code: number) => fail(`the thread exited (${code})`);
    const timer = setTimeout(() => fail(`not done in ${options.timeoutMs} ms`), options.timeoutMs);
    options.signal.addEventListener('abort', onAbort, { once: true });
    worker.on('message', (message: InventoryWorkerMessage) => {
      if (message.type === 'done') end(true, () => resolve(message.inventory));
      else fail(message.message);
    });
    worker.on('error', (error: Error & { code?: string }) =>
      fail(
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? `needed more than ${options.maxHeapMb} MiB`
          : error.message,
      ),
    );
    worker.on('exit', onExit);
    const input: InventoryWorkerInput = { directory, now: now.toISOString() };
    worker.postMessage(input);
  });
}
