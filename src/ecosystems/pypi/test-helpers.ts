import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type {
  DependencyScope,
  DependencySource,
  ExtractedDependency,
  ExtractInput,
  Resolution,
} from '../types';

/** Test-only helpers shared by the PyPI extractor suites. */
const FIXTURES = join(import.meta.dirname, '__fixtures__');

export const fixture = (name: string): string => readFileSync(join(FIXTURES, name), 'utf8');

/** `readFile` over a fixture folder standing in for the scanned root (null when absent). */
export function treeReader(dir: string | null): ExtractInput['readFile'] {
  return (path) => {
    if (dir === null) return null;
    const file = join(FIXTURES, dir, path);
    return existsSync(file) && statSync(file).isFile() ? readFileSync(file, 'utf8') : null;
  };
}

/** An input for fixture `name` extracted as if it lived at `path` (siblings from `tree`). */
export function input(
  name: string,
  path: string,
  tree: string | Record<string, string> | null = null,
): ExtractInput {
  const readFile =
    tree === null || typeof tree === 'string'
      ? treeReader(tree)
      : (p: string) => (tree[p] !== undefined ? fixture(tree[p]) : null);
  return { path, text: fixture(name), readFile };
}

export interface Expected {
  name: string;
  version: string | null;
  purl: string;
  scope: DependencyScope;
  direct: boolean;
  resolution: Resolution;
  line: number | null;
  parents?: string[];
  source?: DependencySource;
}

/** The exact dependency object, spelling out every field; only parents/source have defaults. */
export function dep(expected: Expected): ExtractedDependency {
  return {
    name: expected.name,
    version: expected.version,
    purl: expected.purl,
    scope: expected.scope,
    direct: expected.direct,
    resolution: expected.resolution,
    line: expected.line,
    parents: expected.parents ?? [],
    source: expected.source ?? { kind: 'registry' },
  };
}
