import { readFile } from 'node:fs/promises';
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

/**
 * Reads a checkout's code inventory in a worker thread (./inventory-worker.ts), so that a scan
 * overlaps it with extraction, which runs in its own thread too: on two cores the inventory adds
 * little to the scan's duration, and it never holds the service's event loop. Rejects with the
 * reason when the thread fails, times out or is aborted.
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
  const input: InventoryWorkerInput = { directory, now: now.toISOString() };
  const worker = startModuleWorker(import.meta.url, 'inventory-worker', {
    workerData: input,
    resourceLimits: { maxOldGenerationSizeMb: options.maxHeapMb },
    stdout: false,
    stderr: false,
  });
  return new Promise<CodeInventory>((resolve, reject) => {
    let settled = false;
    const end = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal.removeEventListener('abort', onAbort);
      void worker.terminate();
      outcome();
    };
    const fail = (reason: string) => end(() => reject(new Error(reason)));
    const onAbort = () => fail('stopped with the scan');
    const timer = setTimeout(() => fail(`not done in ${options.timeoutMs} ms`), options.timeoutMs);
    if (options.signal.aborted) {
      onAbort();
      return;
    }
    options.signal.addEventListener('abort', onAbort, { once: true });
    worker.on('message', (message: InventoryWorkerMessage) => {
      if (message.type === 'done') end(() => resolve(message.inventory));
      else fail(message.message);
    });
    worker.on('error', (error: Error & { code?: string }) =>
      fail(
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? `needed more than ${options.maxHeapMb} MiB`
          : error.message,
      ),
    );
    worker.on('exit', (code) => fail(`the thread exited (${code})`));
  });
}
