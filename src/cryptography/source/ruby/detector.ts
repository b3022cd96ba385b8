/**
 * Ruby detector: OpenSSL::PKey, the ed25519 and rbnacl gems, jwt and sshkey uses of
 * quantum-vulnerable public-key cryptography, read from the tree-sitter syntax tree.
 */
import { emptyReport, MatchEngine } from '../engine/engine.js';
import { keywordPrefilter } from '../engine/prefilter.js';
import { descendants, MAX_SOURCE_CHARS } from '../engine/syntax.js';
import { type SyntaxNode, withSyntaxTree } from '../parser.js';
import type { LanguageDetector, SourceFileReport } from '../types.js';
import { RUBY_KEYWORDS, RUBY_TABLES } from './api.js';
import { RUBY_DECLARATIONS, RubyReader } from './reader.js';

const prefilter = keywordPrefilter(RUBY_KEYWORDS);

function detectInTree(root: SyntaxNode): SourceFileReport {
  const reader = new RubyReader();
  const engine = new MatchEngine(RUBY_TABLES, reader);
  const nodes = descendants(root, [...RUBY_DECLARATIONS, 'call']);
  reader.index(nodes);
  engine.reportCalls(nodes.filter((node) => node.type === 'call'));
  return engine.report();
}

export const rubyDetector: LanguageDetector = {
  language: 'ruby',
  extensions: ['.rb', '.rake', '.ru'],
  mayContain: prefilter,
  async detect(_path: string, text: string): Promise<SourceFileReport> {
    if (text.length > MAX_SOURCE_CHARS || !prefilter(text)) return emptyReport();
    try {
      return await withSyntaxTree('ruby', text, (tree) => detectInTree(tree.rootNode));
    } catch {
      // A file that breaks the reader (a tree too deep for the stack) yields no uses.
      return emptyReport();
    }
  },
};
