import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The repository explains itself: docs and code cite docs/ (docs/design.md holds the design
 * decisions the code relies on), never a design file outside the repository. The API contract
 * (../shared/spec/api-spec.md) is the one outside text that may be cited.
 */

const root = join(import.meta.dirname, '..', '..');
const CHECKED = ['docs', 'src', 'cli', 'bench'];
const TEXT = /\.(ts|cjs|mjs|js|md|json|ya?ml)$/;

/** A citation of the outside design: its file name, its folder, or "DESIGN §n". */
const OUTSIDE_DESIGN = [/\bDESIGN(\.md)?\b/, /shared[\\/]design\b/i];

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : files(path);
    return TEXT.test(entry.name) ? [path] : [];
  });
}

function citations(text: string): number[] {
  return text
    .split('\n')
    .flatMap((line, index) => (OUTSIDE_DESIGN.some((p) => p.test(line)) ? [index + 1] : []));
}

describe('docs and code cite docs/, not the design outside the repository', () => {
  it.each(CHECKED)('%s cites no outside design file', (folder) => {
    const offenders = files(join(root, folder)).flatMap((path) =>
      citations(readFileSync(path, 'utf8')).map((line) => `${relative(root, path)}:${line}`),
    );
    expect(offenders).toEqual([]);
  });

  it('catches the spellings a citation would use, and lets the contract and docs/ through', () => {
    expect(citations('see DESIGN §7')).toEqual([1]);
    expect(citations('x\n(DESIGN.md#states)')).toEqual([2]);
    expect(citations('// ../shared/design/notes.md')).toEqual([1]);
    expect(citations('docs/design.md#states and ../shared/spec/api-spec.md')).toEqual([]);
    expect(citations('a well designed module')).toEqual([]);
  });
});
