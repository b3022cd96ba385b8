/**
 * PHP detector: ext/openssl, ext/sodium, phpseclib and the JWT libraries' uses of
 * quantum-vulnerable public-key cryptography, read from the tree-sitter syntax tree.
 */
import { treeDetector } from '../engine/detector.js';
import { MatchEngine } from '../engine/engine.js';
import { keywordPrefilter } from '../engine/prefilter.js';
import { typedDescendants } from '../engine/syntax.js';
import type { SyntaxNode } from '../parser.js';
import type { SourceFileReport } from '../types.js';
import { PHP_KEYWORDS, PHP_TABLES } from './api.js';
import { PHP_DECLARATIONS, PhpReader } from './reader.js';

const CALLS = [
  'function_call_expression',
  'scoped_call_expression',
  'member_call_expression',
  'nullsafe_member_call_expression',
  'object_creation_expression',
];

const prefilter = keywordPrefilter(PHP_KEYWORDS, { ignoreCase: true });

function detectInTree(root: SyntaxNode): SourceFileReport {
  const reader = new PhpReader(PHP_TABLES);
  const engine = new MatchEngine(PHP_TABLES, reader);
  const nodes = typedDescendants(root, [...PHP_DECLARATIONS, ...CALLS]);
  const declarations: readonly string[] = PHP_DECLARATIONS;
  reader.index(
    nodes.filter(({ type }) => declarations.includes(type) || type === 'function_call_expression'),
  );
  engine.reportCalls(nodes.filter(({ type }) => CALLS.includes(type)).map(({ node }) => node));
  return engine.report();
}

export const phpDetector = treeDetector({
  language: 'php',
  extensions: ['.php', '.phtml'],
  grammar: 'php',
  mayContain: prefilter,
  read: (root) => detectInTree(root),
});
