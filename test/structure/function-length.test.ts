import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * No function in src/, cli/ or bench/ may span more than MAX_LINES lines: a longer one is
 * split into named steps that read like the flow they implement. A function's length is its whole
 * span, first to last line, nested functions included (as ESLint's max-lines-per-function counts).
 *
 * Scope: all of src/, cli/ and bench/ (tests and fixtures aside).
 */
const MAX_LINES = 120;
const CHECKED = ['src', 'cli', 'bench'];

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

  it.each(CHECKED)(`no function in %s is longer than ${MAX_LINES} lines`, (folder) => {
    const offenders = sourceFiles(join(root, folder)).flatMap((path) =>
      longFunctions(relative(root, path), readFileSync(path, 'utf8'), MAX_LINES),
    );
    const report = offenders.map((f) => `${f.file}:${f.line} ${f.name} (${f.lines} lines)`);
    expect(report).toEqual([]);
  });
});
