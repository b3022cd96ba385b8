import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type {
  DependencyScope,
  DependencySource,
  ExtractedDependency,
  ExtractInput,
  Resolution,
} from '../types';

/** Test-only helpers shared by the NuGet extractor suites. */
export const fixture = (name: string): string =>
  readFileSync(join(import.meta.dirname, '__fixtures__', name), 'utf8');

/** An input whose `readFile` serves a virtual tree: { 'Directory.Build.props': 'fixture' }. */
export function inputWithTree(
  path: string,
  name: string,
  tree: Record<string, string> = {},
): ExtractInput {
  return {
    path,
    text: fixture(name),
    readFile: (p) => (tree[p] !== undefined ? fixture(tree[p]) : null),
  };
}

/** The exact object an extractor emits for a NuGet package. */
export function nu(
  name: string,
  version: string | null,
  scope: DependencyScope,
  resolution: Resolution,
  line: number | null,
  direct = true,
  parents: string[] = [],
  source: DependencySource = { kind: 'registry' },
): ExtractedDependency {
  const pinned = resolution === 'resolved' && source.kind === 'registry' && version !== null;
  return {
    name,
    version,
    purl: `pkg:nuget/${name}${pinned ? `@${version}` : ''}`,
    scope,
    direct,
    resolution,
    line,
    parents,
    source,
  };
}
