import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * The shared data folder (`../shared/data` beside the checkout), or null when it is absent so that
 * suites needing it can `describe.skipIf(!sharedData)` and say why.
 */
export const sharedDataDir: string | null = (() => {
  const dir = process.env.DRIFTWATCH_SHARED_DATA ?? join(projectRoot, '..', 'shared', 'data');
  return existsSync(dir) ? dir : null;
})();

export const SHARED_DATA_MISSING =
  '../shared/data is absent: skipping the real-world corpus suite (set DRIFTWATCH_SHARED_DATA to point at it)';

export function sharedPath(...parts: string[]): string {
  if (!sharedDataDir) throw new Error(SHARED_DATA_MISSING);
  return join(sharedDataDir, ...parts);
}
