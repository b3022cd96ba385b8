/**
 * PHP detector: ext/openssl, ext/sodium, phpseclib and the JWT libraries' uses of
 * quantum-vulnerable public-key cryptography, read from the tree-sitter syntax tree.
 */
import { emptyReport, MatchEngine } from '../engine/engine.js';
import { keywordPrefilter } from '../engine/prefilter.js';
import { descendants, MAX_SOURCE_CHARS } from '../engine/syntax.js';
import { type SyntaxNode, withSyntaxTree } from '../parser.js';
import type { LanguageDetector, SourceFileReport } from '../types.js';
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
  const nodes = descendants(root, [...PHP_DECLARATIONS, ...CALLS]);
  const declarations: readonly string[] = PHP_DECLARATIONS;
  reader.index(
    nodes.filter(
      (node) => declarations.includes(node.type) || node.type === 'function_call_expression',
    ),
  );
  engine.reportCalls(nodes.filter((node) => CALLS.includes(node.type)));
  return engine.report();
}

export const phpDetector: LanguageDetector = {
  language: 'php',
  extensions: ['.php', '.phtml'],
  mayContain: prefilter,
  async detect(_path: string, text: string): Promise<SourceFileReport> {
    if (text.length > MAX_SOURCE_CHARS || !prefilter(text)) return emptyReport();
    try {
      return await withSyntaxTree('php', text, (tree) => detectInTree(tree.rootNode));
    } catch {
      // A file that breaks the reader (a tree too deep for the stack) yields no uses.
      return emptyReport();
    }
  },
};
