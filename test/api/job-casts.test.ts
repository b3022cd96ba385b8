import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Jobs get their payload types from their contracts (src/jobs/contract.ts: a TypeBox schema,
 * checked when the job is claimed), so a cast of a job's envelope, payload or definition is never
 * needed; one that comes back hides a payload the handler disagrees with. This walks the syntax
 * tree of every TypeScript file in the tree and fails on `x as JobEnvelope<T>`,
 * `d as JobDefinition`, `<JobEnvelope<T>>x`, `envelope.data as T`, `(job.data ?? {}) as T` and
 * the like.
 */

const ROOT = join(import.meta.dirname, '..', '..');
const JOB_TYPES = /\b(JobEnvelope|JobDefinition|JobContract|PayloadOf)\b/;
const CARRIERS = new Set(['envelope', 'job']);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** `envelope`, `job`, or anything ending in `.envelope` / `.job` (`batch[0].envelope`). */
function isCarrier(node: ts.Expression): boolean {
  if (ts.isIdentifier(node)) return CARRIERS.has(node.text);
  return ts.isPropertyAccessExpression(node) && CARRIERS.has(node.name.text);
}

/**
 * Whether a cast applies to a job's payload, looking through parentheses, `!`, `??` and `||`,
 * and down property chains (`envelope.data.scanId as string` casts the payload too).
 */
function castsPayload(node: ts.Expression): boolean {
  if (ts.isParenthesizedExpression(node) || ts.isNonNullExpression(node)) {
    return castsPayload(node.expression);
  }
  if (
    ts.isBinaryExpression(node) &&
    (node.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken ||
      node.operatorToken.kind === ts.SyntaxKind.BarBarToken)
  ) {
    return castsPayload(node.left);
  }
  if (ts.isPropertyAccessExpression(node)) {
    if (node.name.text === 'data' && isCarrier(node.expression)) return true;
    return castsPayload(node.expression);
  }
  if (ts.isElementAccessExpression(node)) return castsPayload(node.expression);
  return false;
}

function findJobCasts(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) {
      const type = node.type.getText();
      // `as const` narrows, it does not assert a type.
      if (type !== 'const' && (JOB_TYPES.test(type) || castsPayload(node.expression))) {
        const { line } = source.getLineAndCharacterOfPosition(node.getStart());
        found.push(`${fileName}:${line + 1}: ${node.getText().split('\n')[0]}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('job payloads are typed by their contracts, never cast', () => {
  it('the checker finds each form of cast (so the real check below can fail)', () => {
    const sample = [
      'const a = envelope as JobEnvelope<RunScanJob>;',
      'const b = definition as JobDefinition<unknown>;',
      'const c = [x, y] as JobDefinition[];',
      'const d = <JobEnvelope<unknown>>job.data;',
      'const e = (envelope.data ?? {}) as SbomImportJob;',
      'const f = envelope.data.scanId as string;',
      'const g = (job.envelope.data as { n: number }).n;',
      'const h = { ...c } as JobContract;',
      "const ok1 = ['a'] as const;",
      'const ok2 = row.data as Summary;',
      'const ok3 = response.data as string;',
    ].join('\n');
    expect(findJobCasts('sample.ts', sample).map((hit) => hit.slice(hit.indexOf(' ') + 1))).toEqual(
      [
        'envelope as JobEnvelope<RunScanJob>',
        'definition as JobDefinition<unknown>',
        '[x, y] as JobDefinition[]',
        '<JobEnvelope<unknown>>job.data',
        '(envelope.data ?? {}) as SbomImportJob',
        'envelope.data.scanId as string',
        'job.envelope.data as { n: number }',
        '{ ...c } as JobContract',
      ],
    );
  });

  it('no file in src/, cli/, test/ or bench/ casts a job envelope, payload or definition', () => {
    const files = ['src', 'cli', 'test', 'bench'].flatMap((dir) => sourceFiles(join(ROOT, dir)));
    expect(files.length).toBeGreaterThan(100);
    const casts = files.flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      // Parsing is the slow part: only files that mention a job or its payload can cast one.
      if (!/\b(Job\w*|PayloadOf|envelope|job)\b/.test(text)) return [];
      return findJobCasts(relative(ROOT, file), text);
    });
    expect(casts).toEqual([]);
  });
});

/**
 * A job's name lives in its contract only (`defineJob({ name })`); users write `CONTRACT.name`,
 * or pass the contract where an API takes a job. An alias of the name under another export
 * (`export const RUN_SCAN_JOB = RUN_SCAN.name`, once about 25 of them) is a second place to look
 * for it and drifts from the contract's own documentation; this fails when one comes back.
 */
const NAME_ALIASES = [
  // `export const X_JOB = …`, whatever it is set to.
  /^\s*export\s+const\s+([A-Z0-9_]+_JOB)\b\s*[:=]/gm,
  // `export const X = CONTRACT.name;`: the contract's name under another name.
  /^\s*export\s+const\s+(\w+)\s*=\s*\w+\.name\s*;/gm,
  // `export { X_JOB }` and `export { X_JOB } from '…'`: an alias passed on.
  /^\s*export\s*(?:type\s*)?\{[^}]*?\b([A-Z0-9_]+_JOB)\b[^}]*\}/gm,
];

function findNameAliases(fileName: string, text: string): string[] {
  const found: string[] = [];
  for (const pattern of NAME_ALIASES) {
    for (const match of text.matchAll(pattern)) {
      const line = text.slice(0, match.index).split('\n').length;
      found.push(`${fileName}:${line}: ${match[1]}`);
    }
  }
  return [...new Set(found)].sort();
}

describe('job names live in their contracts only', () => {
  it('the checker finds each form of alias (so the real check below can fail)', () => {
    const sample = [
      "export const RUN_SCAN = defineJob({ name: 'scans.run' });",
      'export const RUN_SCAN_JOB = RUN_SCAN.name;',
      "export const SWEEP_JOB = 'scans.sweep';",
      'export const SCAN_QUEUE = RUN_SCAN.name;',
      'export { OTHER_JOB };',
      "export { a, REMATCH_JOB, b } from './rematch';",
      'const LOCAL_JOB = RUN_SCAN.name;',
      "export const NOT_AN_ALIAS = 'x';",
      'export { RUN_SCAN };',
    ].join('\n');
    expect(findNameAliases('sample.ts', sample)).toEqual([
      'sample.ts:2: RUN_SCAN_JOB',
      'sample.ts:3: SWEEP_JOB',
      'sample.ts:4: SCAN_QUEUE',
      'sample.ts:5: OTHER_JOB',
      'sample.ts:6: REMATCH_JOB',
    ]);
  });

  it('no file in src/, cli/, test/ or bench/ exports an alias of a job name', () => {
    const files = ['src', 'cli', 'test', 'bench'].flatMap((dir) => sourceFiles(join(ROOT, dir)));
    const aliases = files.flatMap((file) =>
      findNameAliases(relative(ROOT, file), readFileSync(file, 'utf8')),
    );
    expect(aliases).toEqual([]);
  });
});
