import { parentPort, workerData } from 'node:worker_threads';
import { type ExtractedFile, extractPath } from '../../ecosystems/extract-tree';
import type { Ecosystem } from '../../ecosystems/types';

/**
 * The extraction worker thread's entry (started by ./extraction.ts, never imported by the
 * service). It walks and extracts one checkout and reports every file as it starts and ends, so
 * that the parent can give up one file (time or memory) and restart after it.
 */
export interface ExtractWorkerInput {
  root: string;
  maxFileBytes: number;
  skipPaths: string[];
}

export type ExtractWorkerMessage =
  | { type: 'start'; path: string; ecosystem: Ecosystem; extractor: string }
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
    onFileDone: (file) => send({ type: 'file', file }),
    // A rejection (the tree itself unreadable) ends the thread with an error: the parent
    // fails the scan with it.
  }).then(() => send({ type: 'done' }));
}
