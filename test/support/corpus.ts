import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, normalize } from 'node:path';
import { describe } from 'vitest';
import type {
  EcosystemModule,
  ExtractInput,
  ExtractionResult,
  Extractor,
} from '../../src/ecosystems/types';
import { SHARED_DATA_MISSING, sharedDataDir } from './shared-data';

/**
 * The harness of the ecosystems' real-world corpus suites (../shared/data, listed in
 * lockfiles/SOURCES.md): each suite runs the extractor that claims a corpus file on it, with the
 * rest of the corpus readable beside it the way the scanner offers a checkout, and times it.
 * Suites skip themselves when the shared data is absent (`sharedDataDir` null).
 */

/** The corpus's lockfiles folder ('' when the shared data is absent). */
export const LOCKFILES_DIR = sharedDataDir ? join(sharedDataDir, 'lockfiles') : '';

/** `readFile` confined to `root`, as the scanner provides it: null outside it or for no file. */
export function confinedReader(root: string): ExtractInput['readFile'] {
  return (path) => {
    const full = normalize(join(root, path));
    if (!full.startsWith(`${root}/`) || !existsSync(full) || !statSync(full).isFile()) return null;
    return readFileSync(full, 'utf8');
  };
}

export interface CorpusRun {
  extractor: Extractor;
  result: ExtractionResult;
  /** Wall time of the extraction alone. */
  ms: number;
}

/**
 * `run(path)` extracts the corpus file at `path` (relative to `root`) with the extractor of
 * `ecosystem` that claims it (throwing when none does); `readFile` defaults to the confined
 * reader over `root`.
 */
export function corpusRunner(
  ecosystem: EcosystemModule,
  root = LOCKFILES_DIR,
): (path: string, readFile?: ExtractInput['readFile']) => CorpusRun {
  const readTreeFile = confinedReader(root);
  return (path, readFile = readTreeFile) => {
    const extractor = ecosystem.extractors.find((e) => e.matches(path));
    if (!extractor) throw new Error(`no ${ecosystem.id} extractor claims ${path}`);
    const text = readFileSync(join(root, path), 'utf8');
    const started = performance.now();
    const result = extractor.extract({ path, text, readFile });
    return { extractor, result, ms: performance.now() - started };
  };
}

/** A corpus suite, skipped (and saying why) when the shared data is absent. */
export function describeCorpus(title: string, suite: () => void): void {
  const missing = sharedDataDir ? '' : ` (${SHARED_DATA_MISSING})`;
  describe.skipIf(!sharedDataDir)(`${title} real-world corpus${missing}`, suite);
}
