import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Extractor input for a file of `root`, its usual siblings preloaded so that no disk I/O is
 * timed (bench:extract and bench/revision-ab.ts).
 */
export function extractInputFor(root: string, path: string, text: string) {
  const cache = new Map<string, string | null>();
  const readFile = (p: string): string | null => {
    if (!cache.has(p)) {
      try {
        cache.set(p, readFileSync(join(root, p), 'utf8'));
      } catch {
        cache.set(p, null);
      }
    }
    return cache.get(p) ?? null;
  };
  for (const sibling of [
    'package.json',
    'composer.json',
    'go.sum',
    'Cargo.toml',
    'pyproject.toml',
  ]) {
    readFile(dirname(path) === '.' ? sibling : `${dirname(path)}/${sibling}`);
  }
  return { path, text, readFile };
}
