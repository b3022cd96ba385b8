import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * No function in src/, cli/ or bench/ may span more than MAX_LINES lines: a longer one is
 * split into named steps that read like the flow they implement. A function's length is its whole
 * span, first to last line, nested functions included (as ESLint's max-lines-per-function counts).
 *
 * The functions longer than that when the limit came down to 80 are listed, with their length,
 * in long-functions.json: a listed function may shrink but not grow, a new long function fails,
 * and an entry that is no longer needed fails until it is removed, so the list only shrinks.
 * `UPDATE_LONG_FUNCTIONS=1` rewrites the list from the code (for removals; review the diff).
 *
 * Scope: all of src/, cli/ and bench/ (tests and fixtures aside).
 */
const MAX_LINES = 80;
const CHECKED = ['src', 'cli', 'bench'];
const ALLOW_LIST = join(import.meta.dirname, 'long-functions.json');

const root = join(import.meta.dirname, '..', '..');

interface LongFunction {
  file: string;
  line: number;
  name: string;
  lines: number;
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && entry.name !== '__fixtures__')
        out.push(...sourceFiles(path));
    } else if (/\.ts$/.test(entry.name) && !/\.(test|d)\.ts$/.test(entry.name)) {
      out.push(path);
    }
  }
  return out;
}

/** A readable name for a function node: its own, or that of what it is assigned to. */
function functionName(node: ts.Node): string {
  if (
    (ts.isFunctionDeclaration(node) ||
      ts.isMethodDeclaration(node) ||
      ts.isFunctionExpression(node)) &&
    node.name
  ) {
    return node.name.getText();
  }
  const parent = node.parent;
  if (
    parent &&
    (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) &&
    parent.name
  ) {
    return parent.name.getText();
  }
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  if (ts.isGetAccessor(node) || ts.isSetAccessor(node)) return node.name.getText();
  return '(anonymous)';
}

/** Every function-like node of `text` longer than `max` lines. */
function longFunctions(file: string, text: string, max: number): LongFunction[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: LongFunction[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = last - first + 1;
      if (lines > max) found.push({ file, line: first + 1, name: functionName(node), lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('function length', () => {
  it('measures a function by its whole span, nested functions included', () => {
    const body = Array.from({ length: 5 }, (_, i) => `  const v${i} = ${i};`).join('\n');
    const text = `export function outer() {\n${body}\n  const inner = () => {\n${body}\n  };\n}\n`;
    expect(longFunctions('x.ts', text, 10)).toEqual([
      { file: 'x.ts', line: 1, name: 'outer', lines: 14 },
    ]);
    expect(longFunctions('x.ts', text, 6)).toEqual([
      { file: 'x.ts', line: 1, name: 'outer', lines: 14 },
      { file: 'x.ts', line: 7, name: 'inner', lines: 7 },
    ]);
  });

  it(`no function is longer than ${MAX_LINES} lines, but for the shrinking list`, () => {
    const offenders = CHECKED.flatMap((folder) =>
      sourceFiles(join(root, folder)).flatMap((path) =>
        longFunctions(relative(root, path), readFileSync(path, 'utf8'), MAX_LINES),
      ),
    );
    const found = lengthsByFunction(offenders);
    if (process.env.UPDATE_LONG_FUNCTIONS) {
      writeFileSync(ALLOW_LIST, `${JSON.stringify(found, null, 2)}\n`);
    }
    const allowed: Record<string, number[]> = JSON.parse(readFileSync(ALLOW_LIST, 'utf8'));
    expect(allowListProblems(found, allowed)).toEqual([]);
  });

  it('the list refuses a new long function, a listed one grown, and an entry no longer needed', () => {
    const allowed = { 'a.ts#grows': [90], 'a.ts#fixed': [95], 'a.ts#shrank': [100] };
    const found = { 'a.ts#grows': [91], 'a.ts#shrank': [85], 'b.ts#new': [81] };
    expect(allowListProblems(found, allowed)).toEqual([
      'a.ts#grows: 91 lines, listed at 90: split it rather than grow it',
      'b.ts#new: 81 lines (limit 80): split it into named steps',
      'a.ts#fixed: listed but no longer over 80 lines: remove it from long-functions.json',
    ]);
  });
});

/** Each long function's lengths, keyed file#name (several anonymous ones share a key), longest first. */
function lengthsByFunction(offenders: LongFunction[]): Record<string, number[]> {
  const found: Record<string, number[]> = {};
  for (const f of offenders) {
    const key = `${f.file}#${f.name}`;
    found[key] = [...(found[key] ?? []), f.lines];
  }
  for (const lengths of Object.values(found)) lengths.sort((a, b) => b - a);
  return Object.fromEntries(Object.entries(found).sort(([a], [b]) => a.localeCompare(b)));
}

function allowListProblems(
  found: Record<string, number[]>,
  allowed: Record<string, number[]>,
): string[] {
  const problems: string[] = [];
  for (const [key, lengths] of Object.entries(found)) {
    const listed = allowed[key] ?? [];
    lengths.forEach((lines, i) => {
      const limit = listed[i];
      if (limit === undefined) {
        problems.push(`${key}: ${lines} lines (limit ${MAX_LINES}): split it into named steps`);
      } else if (lines > limit) {
        problems.push(`${key}: ${lines} lines, listed at ${limit}: split it rather than grow it`);
      }
    });
  }
  for (const [key, listed] of Object.entries(allowed)) {
    if ((found[key]?.length ?? 0) < listed.length) {
      problems.push(
        `${key}: listed but no longer over ${MAX_LINES} lines: remove it from long-functions.json`,
      );
    }
  }
  return problems;
}
