import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractGoSum, goSumExtractor } from './extract-go-sum';

const text = readFileSync(join(import.meta.dirname, '__fixtures__', 'standalone.sum'), 'utf8');

describe('go/go-sum', () => {
  it('claims go.sum files only', () => {
    expect(goSumExtractor.matches('go.sum')).toBe(true);
    expect(goSumExtractor.matches('tools/go.sum')).toBe(true);
    expect(goSumExtractor.matches('notgo.sum')).toBe(false);
    expect(goSumExtractor.matches('go.mod')).toBe(false);
  });

  it('reports nothing when the sibling go.mod exists (go.mod is the source of truth)', () => {
    const asked: string[] = [];
    const result = extractGoSum({
      path: 'svc/go.sum',
      text,
      readFile: (p) => {
        asked.push(p);
        return p === 'svc/go.mod' ? 'module x\n' : null;
      },
    });
    expect(asked).toEqual(['svc/go.mod']);
    expect(result).toEqual({ dependencies: [], errors: [] });
  });

  it('alone, reports the highest zip-hashed version per module and skips /go.mod-only lines', () => {
    const result = extractGoSum({ path: 'go.sum', text, readFile: () => null });
    expect(result).toEqual({
      dependencies: [
        {
          name: 'github.com/alpha/a',
          version: 'v1.2.0',
          purl: 'pkg:golang/github.com/alpha/a@v1.2.0',
          scope: 'runtime',
          direct: false,
          resolution: 'resolved',
          line: 3,
          parents: [],
          source: { kind: 'registry' },
        },
        {
          name: 'golang.org/x/text',
          version: 'v0.3.8-0.20211004125949-5bd84dd9b33b',
          purl: 'pkg:golang/golang.org/x/text@v0.3.8-0.20211004125949-5bd84dd9b33b',
          scope: 'runtime',
          direct: false,
          resolution: 'resolved',
          line: 6,
          parents: [],
          source: { kind: 'registry' },
        },
        {
          name: 'github.com/legacy/pkg',
          version: 'v2.3.0+incompatible',
          purl: 'pkg:golang/github.com/legacy/pkg@v2.3.0+incompatible',
          scope: 'runtime',
          direct: false,
          resolution: 'resolved',
          line: 8,
          parents: [],
          source: { kind: 'registry' },
        },
      ],
      errors: [{ line: 7, message: 'expected "<module> <version> <hash>"' }],
    });
  });

  it('reports a bad version and keeps going', () => {
    const result = extractGoSum({
      path: 'go.sum',
      text: 'a.io/x 1.0.0 h1:x=\na.io/y v1.0.0 h1:y=\n',
      readFile: () => null,
    });
    expect(result.dependencies.map((d) => d.name)).toEqual(['a.io/y']);
    expect(result.errors).toEqual([{ line: 1, message: 'invalid version "1.0.0"' }]);
  });
});
