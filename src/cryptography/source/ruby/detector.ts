/**
 * Ruby detector: OpenSSL::PKey, the ed25519 and rbnacl gems, jwt and sshkey uses of
 * quantum-vulnerable public-key cryptography, read from the tree-sitter syntax tree.
 */
import { treeDetector } from '../engine/detector.js';
import { MatchEngine } from '../engine/engine.js';
import { keywordPrefilter } from '../engine/prefilter.js';
import { typedDescendants } from '../engine/syntax.js';
import type { SyntaxNode } from '../parser.js';
import type { SourceFileReport } from '../types.js';
import { RUBY_KEYWORDS, RUBY_TABLES } from './api.js';
import { RUBY_DECLARATIONS, RubyReader } from './reader.js';

const prefilter = keywordPrefilter(RUBY_KEYWORDS);

function detectInTree(root: SyntaxNode): SourceFileReport {
  const reader = new RubyReader();
  const engine = new MatchEngine(RUBY_TABLES, reader);
  const nodes = typedDescendants(root, [...RUBY_DECLARATIONS, 'call']);
  reader.index(nodes);
  engine.reportCalls(nodes.filter(({ type }) => type === 'call').map(({ node }) => node));
  return engine.report();
}

export const rubyDetector = treeDetector({
  language: 'ruby',
  extensions: ['.rb', '.rake', '.ru'],
  grammar: 'ruby',
  mayContain: prefilter,
  read: (root) => detectInTree(root),
});
