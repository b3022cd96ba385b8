import { readFileSync } from 'node:fs';
import type { ExtractedDependency, ExtractInput } from '../../src/ecosystems/types';

/**
 * Helpers for the npm extractors' table tests (src/ecosystems/npm/*.test.ts); fixtures stay
 * beside the extractors in src/ecosystems/npm/__fixtures__/.
 */

export function fixture(name: string): string {
  return readFileSync(
    new URL(`../../src/ecosystems/npm/__fixtures__/${name}`, import.meta.url),
    'utf8',
  );
}

/** An extractor input whose readFile serves `files` (tree-relative path → text) and nothing else. */
export function inputOf(
  path: string,
  text: string,
  files: Record<string, string> = {},
): ExtractInput {
  return { path, text, readFile: (p) => files[p] ?? null };
}

/** name, version, scope, direct, resolution, line, parents, source, purl. */
export type Row = [
  string,
  string | null,
  ExtractedDependency['scope'],
  boolean,
  ExtractedDependency['resolution'],
  number | null,
  string[],
  string,
  string,
];

function sourceText(source: ExtractedDependency['source']): string {
  switch (source.kind) {
    case 'registry':
      return 'registry';
    case 'git':
      return `git ${source.url}#${source.ref ?? ''}`;
    case 'url':
      return `url ${source.url}`;
    case 'path':
      return `path ${source.path}`;
    case 'replaced':
      return `replaced by ${source.by}${source.version ? ` ${source.version}` : ''}`;
  }
}

/** Every field of every dependency, one compact row each, so tables compare the exact output. */
export function rows(dependencies: readonly ExtractedDependency[]): Row[] {
  return dependencies.map((d) => [
    d.name,
    d.version,
    d.scope,
    d.direct,
    d.resolution,
    d.line,
    d.parents,
    sourceText(d.source),
    d.purl,
  ]);
}
