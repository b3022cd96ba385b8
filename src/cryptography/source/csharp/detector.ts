/**
 * C# detector: System.Security.Cryptography, BouncyCastle and Microsoft.IdentityModel.Tokens
 * uses of quantum-vulnerable public-key cryptography, read from the tree-sitter syntax tree.
 */
import { treeDetector } from '../engine/detector.js';
import { MatchEngine } from '../engine/engine.js';
import { keywordPrefilter, wordsPattern } from '../engine/prefilter.js';
import { nodesSpelling, typedDescendants } from '../engine/syntax.js';
import type { SyntaxNode } from '../parser.js';
import type { SourceFileReport } from '../types.js';
import { CSHARP_KEYWORDS, CSHARP_TABLES } from './api.js';
import { CSHARP_DECLARATIONS, CSharpReader } from './reader.js';

const CALLS = ['invocation_expression', 'object_creation_expression'];
/** Library constants are found by their names in the text: few, and no walk of the tree. */
const CONSTANT_NAMES = wordsPattern(CSHARP_TABLES.known.lastSegments);
/** Where a constant is the value of a name: the name's uses are followed instead. */
const BINDING_PARENTS = new Set([
  'variable_declarator',
  'arrow_expression_clause',
  'return_statement',
  'assignment_expression',
  'property_declaration',
]);

const prefilter = keywordPrefilter(CSHARP_KEYWORDS);

/** A constant written on its own is a member access (`SecurityAlgorithms.RsaSha256`). */
function standaloneConstant(name: SyntaxNode): SyntaxNode | null {
  const access = name.parent;
  if (access?.type !== 'member_access_expression') return null;
  if (access.childForFieldName('name')?.id !== name.id) return null;
  return BINDING_PARENTS.has(access.parent?.type ?? '') ? null : access;
}

function detectInTree(root: SyntaxNode, text: string): SourceFileReport {
  const reader = new CSharpReader(CSHARP_TABLES);
  const engine = new MatchEngine(CSHARP_TABLES, reader);
  const nodes = typedDescendants(root, [...CSHARP_DECLARATIONS, ...CALLS]);
  const declarations: readonly string[] = CSHARP_DECLARATIONS;
  reader.index(nodes.filter(({ type }) => declarations.includes(type)));
  const calls = nodes.filter(
    ({ type }) => CALLS.includes(type) || type === 'assignment_expression',
  );
  engine.reportCalls(calls.map(({ node }) => node));
  const constants = nodesSpelling(root, text, CONSTANT_NAMES)
    .map(standaloneConstant)
    .filter((node) => node !== null);
  engine.reportConstants(constants, (node) => reader.pathOf(node));
  return engine.report();
}

export const csharpDetector = treeDetector({
  language: 'csharp',
  extensions: ['.cs'],
  grammar: 'c-sharp',
  mayContain: prefilter,
  read: (root, text) => detectInTree(root, text),
});
