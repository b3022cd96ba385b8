import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DependencyScope, ExtractedDependency, ExtractInput, Resolution } from '../types';

/** Test-only helpers shared by the Maven extractor suites. */
export const fixture = (name: string): string =>
  readFileSync(join(import.meta.dirname, '__fixtures__', name), 'utf8');

/** An input whose `readFile` serves a virtual tree of fixtures: { 'a/pom.xml': 'fixture.xml' }. */
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

/** The exact object an extractor emits for a registry Maven artifact. */
export function mvn(
  name: string,
  version: string | null,
  scope: DependencyScope,
  resolution: Resolution,
  line: number | null,
  direct = true,
): ExtractedDependency {
  const [group, artifact] = name.split(':');
  const purlVersion = resolution === 'resolved' && version ? `@${version}` : '';
  return {
    name,
    version,
    purl: `pkg:maven/${group}/${artifact}${purlVersion}`,
    scope,
    direct,
    resolution,
    line,
    parents: [],
    source: { kind: 'registry' },
  };
}
