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
