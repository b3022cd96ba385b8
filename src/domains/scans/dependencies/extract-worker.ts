import { parentPort, workerData } from 'node:worker_threads';
import { type ExtractedFile, extractPath } from '../../../ecosystems/extract-tree';
import type { Ecosystem, ExtractedDependency } from '../../../ecosystems/types';
import { storableFiles } from './storable';

/**
 * The extraction worker thread's entry (started by ./extraction.ts, never imported by the
 * service). It walks and extracts one checkout and reports every file as it starts and ends, so
 * that the parent can give up one file (time or memory) and restart after it. A file's entries
 * are checked for unstorable text here and sent in batches of `DEPENDENCY_BATCH`: one message of
 * a 50 MB lockfile's 250,000 entries took the parent's event loop 240 ms to receive (and the
 * check 1.5 s), the batches take about 10 ms each.
 */
export interface ExtractWorkerInput {
  root: string;
  maxFileBytes: number;
  skipPaths: string[];
}

/** Entries per message to the parent. */
export const DEPENDENCY_BATCH = 10_000;

export type ExtractWorkerMessage =
  | { type: 'start'; path: string; ecosystem: Ecosystem; extractor: string }
  /** Entries of the file being read, in order; its `file` message follows without them. */
  | { type: 'dependencies'; path: string; dependencies: ExtractedDependency[] }
  | { type: 'file'; file: ExtractedFile }
  | { type: 'done' };

const port = parentPort;
if (port) {
  const input = workerData as ExtractWorkerInput;
  const send = (message: ExtractWorkerMessage) => port.postMessage(message);
  extractPath(input.root, {
    maxFileBytes: input.maxFileBytes,
    // Lockfile wins is applied by the parent over every file, whichever worker read it.
    lockfileWins: false,
    skipPaths: new Set(input.skipPaths),
    onFileStart: (file) => send({ type: 'start', ...file }),
    onFileDone: (extracted) => {
      const [file] = storableFiles([extracted]);
      if (!file) return;
      for (let i = 0; i < file.dependencies.length; i += DEPENDENCY_BATCH) {
        const dependencies = file.dependencies.slice(i, i + DEPENDENCY_BATCH);
        send({ type: 'dependencies', path: file.path, dependencies });
      }
      send({ type: 'file', file: { ...file, dependencies: [] } });
    },
    // A rejection (the tree itself unreadable) ends the thread with an error: the parent
    // fails the scan with it.
  }).then(() => send({ type: 'done' }));
}
