import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Routes get their request types from their schemas (the TypeBox type provider), so a cast of
 * a request part is never needed; one that comes back hides a schema the handler disagrees
 * with. This walks the syntax tree of every TypeScript file in the tree and fails on
 * `request.params as X`, `(request.body ?? {}) as X`, `<X>request.query`,
 * `request.query.state as X` and the like.
 */

const ROOT = join(import.meta.dirname, '..', '..');
const PARTS = new Set(['params', 'query', 'body']);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** `request`, `req`, or anything ending in `.request` (a hook's `ctx.request`). */
function isRequestObject(node: ts.Expression): boolean {
  if (ts.isIdentifier(node)) return node.text === 'request' || node.text === 'req';
  return ts.isPropertyAccessExpression(node) && node.name.text === 'request';
}

/**
 * The request part a cast applies to, looking through parentheses, `!`, `??` and `||`, and
 * down property chains (`request.query.state as string` casts a part too).
 */
function castRequestPart(node: ts.Expression): string | null {
  if (ts.isParenthesizedExpression(node) || ts.isNonNullExpression(node)) {
    return castRequestPart(node.expression);
  }
  if (
    ts.isBinaryExpression(node) &&
    (node.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken ||
      node.operatorToken.kind === ts.SyntaxKind.BarBarToken)
  ) {
    return castRequestPart(node.left);
  }
  if (ts.isPropertyAccessExpression(node)) {
    if (PARTS.has(node.name.text) && isRequestObject(node.expression)) {
      return `${node.expression.getText()}.${node.name.text}`;
    }
    return castRequestPart(node.expression);
  }
  if (ts.isElementAccessExpression(node)) return castRequestPart(node.expression);
  return null;
}

function findRequestCasts(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) {
      const part = castRequestPart(node.expression);
      // `as const` narrows, it does not assert a type.
      const isConst = ts.isAsExpression(node) && node.type.getText() === 'const';
      if (part && !isConst) {
        const { line } = source.getLineAndCharacterOfPosition(node.getStart());
        found.push(`${fileName}:${line + 1}: ${node.getText().split('\n')[0]}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('request parts are typed by their schemas, never cast', () => {
  it('the checker finds each form of cast (so the real check below can fail)', () => {
    const sample = [
      'const a = request.params as { id: string };',
      'const b = (request.body ?? {}) as { note?: string };',
      'const c = <{ take?: number }>request.query;',
      'const d = (req.params!) as Record<string, string>;',
      'const e = ctx.request.body as Record<string, string>;',
      'const f = request.query.state as string | undefined;',
      "const g = request.body['items'] as string[];",
      "const ok1 = ['a'] as const;",
      'const ok2 = outbound.body as string;',
      'const ok3 = request.headers as Record<string, string>;',
    ].join('\n');
    expect(
      findRequestCasts('sample.ts', sample).map((hit) => hit.slice(hit.indexOf(' ') + 1)),
    ).toEqual([
      'request.params as { id: string }',
      '(request.body ?? {}) as { note?: string }',
      '<{ take?: number }>request.query',
      '(req.params!) as Record<string, string>',
      'ctx.request.body as Record<string, string>',
      'request.query.state as string | undefined',
      "request.body['items'] as string[]",
    ]);
  });

  it('no file in src/, cli/, test/ or bench/ casts request.params, .query or .body', () => {
    const files = ['src', 'cli', 'test', 'bench'].flatMap((dir) => sourceFiles(join(ROOT, dir)));
    expect(files.length).toBeGreaterThan(100);
    const casts = files.flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      // Parsing is the slow part: only files that mention a request part can cast one.
      if (!/\b(params|query|body)\b/.test(text)) return [];
      return findRequestCasts(relative(ROOT, file), text);
    });
    expect(casts).toEqual([]);
  });
});
