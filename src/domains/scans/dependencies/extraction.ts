import { startModuleWorker } from '../../../core/module-worker';
import { ecosystems } from '../../../ecosystems/ecosystem-list';
import {
  applyLockfileWins,
  type ExtractedFile,
  type TreeExtraction,
} from '../../../ecosystems/extract-tree';
import type { Ecosystem, Extractor } from '../../../ecosystems/types';
import type { ExtractWorkerInput, ExtractWorkerMessage } from './extract-worker';

/**
 * Extraction off the API's event loop (docs/repositories-and-scans.md, "Extraction limits"): a
 * checkout is extracted in a worker thread with a heap limit, a time limit per file and one per
 * scan. A file that breaches its limit (or kills the worker by running out of memory) is given
 * up: the worker is terminated, the file reported with an error, and a new worker continues
 * after it. A scan that breaches its own limit fails: a partial tree must not replace the
 * repository's dependencies.
 */
export interface ExtractionLimits {
  /** Files larger than this are refused per file, unread. */
  maxFileBytes: number;
  /** One file's read and parse; above it the file is given up. */
  fileTimeoutMs: number;
  /** The whole extraction of one checkout; above it the scan fails. */
  scanTimeoutMs: number;
  /** The worker's V8 heap (old generation) in MiB; running out gives the file up. */
  maxHeapMb: number;
  /**
   * Dependencies one scan collects (SCAN_MAX_DEPENDENCIES): a file whose entries would pass it
   * keeps none, with an error saying so; later files are kept while they fit.
   */
  maxDependencies: number;
}

export const DEFAULT_EXTRACTION_LIMITS: ExtractionLimits = {
  maxFileBytes: 64 * 1024 * 1024,
  fileTimeoutMs: 60_000,
  scanTimeoutMs: 10 * 60_000,
  // SCAN_EXTRACTION_HEAP_MB: a 64 MiB package-lock.json (323,255 entries) needs more than 384.
  maxHeapMb: 512,
  // Ten 50 MB lockfiles' worth (190,794 entries each, docs/benchmarks.md) would pass it.
  maxDependencies: 500_000,
};

export class ExtractionStopped extends Error {}

const extractorKinds: ReadonlyMap<string, Extractor['kind']> = new Map(
  ecosystems.flatMap((e) => e.extractors.map((x) => [x.name, x.kind] as const)),
);

interface FileStart {
  path: string;
  ecosystem: Ecosystem;
  extractor: string;
}

function givenUp(start: FileStart, reason: string): ExtractedFile {
  return {
    path: start.path,
    ecosystem: start.ecosystem,
    format: start.extractor,
    extractor: start.extractor,
    dependencies: [],
    errors: [{ line: null, message: reason }],
  };
}

function overLimit(file: ExtractedFile, entries: number, limits: ExtractionLimits): ExtractedFile {
  const message = `the scan's limit of ${limits.maxDependencies} dependencies (SCAN_MAX_DEPENDENCIES) was reached: this file's ${entries} entries were not kept`;
  return { ...file, dependencies: [], errors: [...file.errors, { line: null, message }] };
}

function crashReason(error: Error & { code?: string }, limits: ExtractionLimits): string {
  return error.code === 'ERR_WORKER_OUT_OF_MEMORY'
    ? `needed more than the ${limits.maxHeapMb} MiB extraction memory limit: given up`
    : `extraction crashed (${error.message}): given up`;
}

interface Pass {
  /** True when the worker walked the whole tree; false when it was stopped on a file. */
  finished: boolean;
}

/** One worker over the tree, skipping what earlier passes settled. */
function runPass(
  root: string,
  limits: ExtractionLimits,
  settled: Map<string, ExtractedFile>,
  deadline: number,
  signal: AbortSignal | undefined,
): Promise<Pass> {
  const skipPaths = [...settled.keys()];
  const input: ExtractWorkerInput = { root, maxFileBytes: limits.maxFileBytes, skipPaths };
  const worker = startModuleWorker(import.meta.url, 'extract-worker', {
    workerData: input,
    resourceLimits: { maxOldGenerationSizeMb: limits.maxHeapMb },
    stdout: false,
    stderr: false,
  });
  return new Promise<Pass>((resolve, reject) => {
    let current: FileStart | null = null;
    // The current file's entries as their batches arrive (dropped if the file is given up).
    let received: ExtractedFile['dependencies'] = [];
    // Entries kept so far by the scan, and the current file's count once it passed the limit.
    let collected = 0;
    for (const file of settled.values()) collected += file.dependencies.length;
    let dropped: number | null = null;
    let fileTimer: NodeJS.Timeout | undefined;
    let settledPass = false;
    const end = (outcome: () => void) => {
      if (settledPass) return;
      settledPass = true;
      clearTimeout(fileTimer);
      clearTimeout(scanTimer);
      signal?.removeEventListener('abort', onAbort);
      void worker.terminate();
      outcome();
    };
    const giveUp = (reason: string) =>
      end(() => {
        if (!current) {
          reject(new ExtractionStopped(`extraction failed: ${reason}`));
          return;
        }
        settled.set(current.path, givenUp(current, reason));
        resolve({ finished: false });
      });
    const scanTimer = setTimeout(
      () =>
        end(() =>
          reject(
            new ExtractionStopped(
              `extraction exceeded the scan time limit of ${limits.scanTimeoutMs / 1000} s` +
                (current ? ` (in ${current.path})` : ''),
            ),
          ),
        ),
      Math.max(0, deadline - Date.now()),
    );
    const onAbort = () => end(() => reject(new ExtractionStopped('extraction stopped')));
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.on('message', (message: ExtractWorkerMessage) => {
      if (message.type === 'start') {
        received = [];
        dropped = null;
        current = {
          path: message.path,
          ecosystem: message.ecosystem,
          extractor: message.extractor,
        };
        clearTimeout(fileTimer);
        fileTimer = setTimeout(
          () => giveUp(`took longer than ${limits.fileTimeoutMs / 1000} s: given up`),
          limits.fileTimeoutMs,
        );
      } else if (message.type === 'dependencies') {
        const count = message.dependencies.length;
        if (dropped === null && collected + received.length + count > limits.maxDependencies) {
          dropped = received.length;
          received = [];
        }
        if (dropped !== null) dropped += count;
        else for (const dependency of message.dependencies) received.push(dependency);
      } else if (message.type === 'file') {
        const file = { ...message.file, dependencies: received };
        settled.set(file.path, dropped === null ? file : overLimit(file, dropped, limits));
        collected += received.length;
        received = [];
        current = null;
        clearTimeout(fileTimer);
      } else {
        end(() => resolve({ finished: true }));
      }
    });
    worker.on('error', (error: Error & { code?: string }) => giveUp(crashReason(error, limits)));
    worker.on('exit', (code) => giveUp(`the extraction worker exited (code ${code})`));
  });
}

/**
 * Extracts a checkout in worker threads under `limits`. Files given up appear with an error and
 * no dependencies; entries with text PostgreSQL cannot store are dropped (an error for their
 * file, ./storable.ts); the lockfile-wins rule is applied over every file at the end.
 */
export async function extractInWorker(
  root: string,
  limits: ExtractionLimits = DEFAULT_EXTRACTION_LIMITS,
  signal?: AbortSignal,
): Promise<TreeExtraction> {
  const settled = new Map<string, ExtractedFile>();
  const deadline = Date.now() + limits.scanTimeoutMs;
  for (;;) {
    if (signal?.aborted) throw new ExtractionStopped('extraction stopped');
    const pass = await runPass(root, limits, settled, deadline, signal);
    if (pass.finished) break;
  }
  const files = [...settled.values()].sort((a, b) => (a.path < b.path ? -1 : 1));
  return { files: applyLockfileWins(files, extractorKinds, ecosystems) };
}
