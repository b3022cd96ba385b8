import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * docs/architecture.md#cross-domain-imports lists every import from one domain into another; the
 * real list is derived here from the imports of src/domains/* (tests aside), so the document
 * cannot drift from the code: a new edge fails this test until the table names it.
 */

const root = join(import.meta.dirname, '..', '..');
const DOMAINS = join(root, 'src', 'domains');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === '__fixtures__' ? [] : sourceFiles(path);
    return /\.ts$/.test(entry.name) && !/\.(test|d)\.ts$/.test(entry.name) ? [path] : [];
  });
}

/** The domain folder a path under src/domains/ belongs to; null for a file beside the folders. */
function domainOf(path: string): string | null {
  const parts = relative(DOMAINS, path).split(/[\\/]/);
  if (parts[0] === '..' || parts.length < 2) return null;
  return parts[0] ?? null;
}

/** "from -> to" for each import (static, dynamic, type-only or re-export) of one file. */
function importEdges(path: string, text: string): string[] {
  const from = domainOf(path);
  if (!from) return [];
  const { importedFiles } = ts.preProcessFile(text, true, true);
  return importedFiles
    .filter((imported) => imported.fileName.startsWith('.'))
    .map((imported) => domainOf(resolve(dirname(path), imported.fileName)))
    .filter((to): to is string => to !== null && to !== from)
    .map((to) => `${from} -> ${to}`);
}

/** "from -> to" for each row of the table under the "Cross-domain imports" heading. */
function documentedEdges(markdown: string): string[] {
  const section = markdown.split(/^### Cross-domain imports$/m)[1]?.split(/^#/m)[0] ?? '';
  return section
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .flatMap((line) => {
      const [from, to] = line
        .split('|')
        .slice(1, 3)
        .map((cell) => cell.replaceAll('`', '').trim());
      return (to ?? '').split(',').map((target) => `${from} -> ${target.trim()}`);
    });
}

const sorted = (edges: string[]) => [...new Set(edges)].sort();

/**
 * The strongly connected groups of the domain graph with more than one domain (Tarjan): each is
 * a loop of imports, named by its members in order.
 */
function domainLoops(edges: string[]): string[] {
  const next = new Map<string, string[]>();
  for (const edge of edges) {
    const [from, to] = edge.split(' -> ') as [string, string];
    next.set(from, [...(next.get(from) ?? []), to]);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const loops: string[] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node) ?? 0);
    stack.push(node);
    for (const to of next.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(to) ?? 0));
      } else if (stack.includes(to)) {
        low.set(node, Math.min(low.get(node) ?? 0, index.get(to) ?? 0));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const members: string[] = [];
    for (let member = stack.pop(); member !== undefined; member = stack.pop()) {
      members.push(member);
      if (member === node) break;
    }
    if (members.length > 1) loops.push(members.sort().join(', '));
  };
  for (const node of [...next.keys()].sort()) if (!index.has(node)) visit(node);
  return loops.sort();
}

describe('docs/architecture.md lists the cross-domain imports', () => {
  it('names exactly the edges the code has', () => {
    const real = sorted(
      sourceFiles(DOMAINS).flatMap((path) => importEdges(path, readFileSync(path, 'utf8'))),
    );
    const documented = sorted(
      documentedEdges(readFileSync(join(root, 'docs', 'architecture.md'), 'utf8')),
    );
    expect(real.length).toBeGreaterThan(10);
    expect(documented).toEqual(real);
  });

  it('has no loop between domains: the graph goes one way (docs/architecture.md#the-domain-graph)', () => {
    const real = sorted(
      sourceFiles(DOMAINS).flatMap((path) => importEdges(path, readFileSync(path, 'utf8'))),
    );
    expect(domainLoops(real)).toEqual([]);
  });

  it('finds loops of any length, and no loop in a graph going one way', () => {
    expect(domainLoops(['a -> b', 'b -> c', 'c -> a', 'c -> d', 'd -> e', 'e -> d'])).toEqual([
      'a, b, c',
      'd, e',
    ]);
    expect(domainLoops(['a -> b', 'b -> c', 'a -> c'])).toEqual([]);
  });

  it('sees every kind of import, and only those that cross domains', () => {
    const file = join(DOMAINS, 'alerts', 'service.ts');
    const text = [
      "import type { A } from '../exposures/tables';",
      "export { B } from '../scans/store';",
      "const c = await import('../policies/requests');",
      "import { D } from './store';",
      "import { E } from '../../db/schema';",
      "import { F } from '../job-deps';",
    ].join('\n');
    expect(importEdges(file, text).sort()).toEqual([
      'alerts -> exposures',
      'alerts -> policies',
      'alerts -> scans',
    ]);
  });

  it('reads the table rows of its section only', () => {
    const markdown = [
      '### Cross-domain imports',
      '| Domain | Imports | What for |',
      '|---|---|---|',
      '| `alerts` | `integrations`, `repositories` | deliveries; which exist |',
      '## Next',
      '| `scans` | `repositories` | not in the section |',
    ].join('\n');
    expect(documentedEdges(markdown)).toEqual(['alerts -> integrations', 'alerts -> repositories']);
  });
});
