/**
 * C# detector: System.Security.Cryptography, BouncyCastle and Microsoft.IdentityModel.Tokens
 * uses of quantum-vulnerable public-key cryptography, read from the tree-sitter syntax tree.
 */
import { MatchEngine } from '../engine-b.js';
import { withSyntaxTree } from '../parser.js';
import { keywordPrefilter } from '../prefilter-b.js';
import { MAX_SOURCE_CHARS, nodesOfType } from '../syntax-b.js';
import type { LanguageDetector, SourceFileReport } from '../types.js';
import { CSHARP_KEYWORDS, CSHARP_TABLES } from './api.js';
import { CSHARP_DECLARATIONS, CSharpReader } from './reader.js';

const CALLS = ['invocation_expression', 'object_creation_expression'];
/** A library constant written on its own is a member access (`SecurityAlgorithms.RsaSha256`). */
const CONSTANTS = ['member_access_expression'];
/** Where a constant is the value of a name: the name's uses are followed instead. */
const BINDING_PARENTS = new Set([
  'variable_declarator',
  'arrow_expression_clause',
  'return_statement',
  'assignment_expression',
  'property_declaration',
]);

const prefilter = keywordPrefilter(CSHARP_KEYWORDS);

function detectInTree(root: Parameters<typeof nodesOfType>[0]): SourceFileReport {
  const reader = new CSharpReader(CSHARP_TABLES);
  const engine = new MatchEngine(CSHARP_TABLES, reader);
  const nodes = nodesOfType(root, [...CSHARP_DECLARATIONS, ...CALLS, ...CONSTANTS]);
  reader.index(nodes);
  const calls = nodes.filter(
    (node) => CALLS.includes(node.type) || node.type === 'assignment_expression',
  );
  engine.reportCalls(calls);
  const standalone = CSHARP_TABLES.known.lastSegments;
  const constants = nodes.filter(
    (node) =>
      node.type === 'member_access_expression' &&
      standalone.has(node.childForFieldName('name')?.text ?? '') &&
      !BINDING_PARENTS.has(node.parent?.type ?? ''),
  );
  engine.reportConstants(constants, (node) => reader.pathOf(node));
  return engine.report();
}

export const csharpDetector: LanguageDetector = {
  language: 'csharp',
  extensions: ['.cs'],
  prefilter,
  async detect(_path: string, text: string): Promise<SourceFileReport> {
    if (text.length > MAX_SOURCE_CHARS || !prefilter(text)) return { uses: [], algorithms: [] };
    return withSyntaxTree('c-sharp', text, (tree) => detectInTree(tree.rootNode));
  },
};
