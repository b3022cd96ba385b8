/**
 * Rust detector: the rsa, p256/p384/k256, ring, dalek, openssl and jsonwebtoken crates' uses
 * of quantum-vulnerable public-key cryptography, read from the tree-sitter syntax tree.
 */
import { type Parser, treeDetector } from '../engine/detector.js';
import { MatchEngine } from '../engine/engine.js';
import { keywordPrefilter, wordsPattern } from '../engine/prefilter.js';
import {
  ancestorOfType,
  descendants,
  nodesSpelling,
  type TypedNode,
  typedDescendants,
} from '../engine/syntax.js';
import type { SyntaxNode } from '../parser.js';
import type { SourceFileReport } from '../types.js';
import { RUST_KEYWORDS, RUST_TABLES } from './api.js';
import { RUST_DECLARATIONS, RustReader } from './reader.js';

const CALLS = ['call_expression'];
const VALUE_WRAPPERS = new Set(['reference_expression', 'parenthesized_expression']);
const BINDING_PARENTS = new Set(['const_item', 'static_item', 'let_declaration']);

const prefilter = keywordPrefilter(RUST_KEYWORDS);
/** A macro body worth parsing again: it names a crate or calls a method of the tables. */
const MACRO_BODY = new RegExp(
  `\\b(?:${[...RUST_TABLES.methods.keys()].join('|')})\\b|${prefilter.source}`,
);

const NESTED_MACRO = /\b[A-Za-z_][A-Za-z0-9_]*!(?=\s*[([{])/g;

/** Library constants are found by their names in the text: few, and no walk of the tree. */
const CONSTANT_NAMES = wordsPattern(RUST_TABLES.known.lastSegments);

/** A library constant written on its own, not in a `use`, not a path's inner part, not bound. */
function isStandaloneConstant(node: SyntaxNode): boolean {
  if (node.type !== 'identifier' && node.type !== 'scoped_identifier') return false;
  let parent = node.parent;
  if (parent?.type === 'scoped_identifier' || parent?.type === 'scoped_use_list') return false;
  while (parent && VALUE_WRAPPERS.has(parent.type)) parent = parent.parent;
  if (!parent || BINDING_PARENTS.has(parent.type)) return false;
  return !ancestorOfType(node, ['use_declaration', 'use_list'], 6);
}

/** Macros whose arguments may hold a use: tree-sitter leaves them as token trees. */
function macrosToReparse(nodes: readonly TypedNode[]): SyntaxNode[] {
  return nodes.flatMap(({ node, type }) => {
    if (type !== 'macro_invocation') return [];
    if (node.childForFieldName('macro')?.text === 'macro_rules') return [];
    const body = node.namedChildren.find((child) => child?.type === 'token_tree');
    return body && MACRO_BODY.test(body.text) ? [node] : [];
  });
}

/**
 * The text again with each macro's name and `!` blanked (`assert!(k.verify(m, &s))` becomes
 * `       (k.verify(m, &s))`), so its arguments parse as the expressions they are, at the same
 * offsets: the file's bindings still apply.
 */
function withMacroNamesBlanked(text: string, macros: readonly SyntaxNode[]): string {
  let out = '';
  let from = 0;
  for (const macro of macros) {
    const body = macro.namedChildren.find((child) => child?.type === 'token_tree');
    if (!body || macro.startIndex < from) continue;
    out += text.slice(from, macro.startIndex) + ' '.repeat(body.startIndex - macro.startIndex);
    // Macros nested in the arguments (`assert!(format!(..))`) are blanked the same way.
    out += text
      .slice(body.startIndex, body.endIndex)
      .replace(NESTED_MACRO, (name) => ' '.repeat(name.length));
    from = body.endIndex;
  }
  return out + text.slice(from);
}

/** The whole path a constant's name ends (`signature::ED25519` for `ED25519`). */
function constantPath(name: SyntaxNode): SyntaxNode {
  let node = name;
  while (
    node.parent?.type === 'scoped_identifier' &&
    node.parent.childForFieldName('name')?.id === node.id
  ) {
    node = node.parent;
  }
  return node;
}

function reportConstants(engine: MatchEngine, reader: RustReader, names: SyntaxNode[]): void {
  const constants = names.map(constantPath).filter(isStandaloneConstant);
  engine.reportConstants(constants, (node) => reader.pathOf(node));
}

/** Calls and constants inside macro arguments, from the text parsed again (see above). */
function reportInMacros(
  engine: MatchEngine,
  reader: RustReader,
  macros: readonly SyntaxNode[],
  blanked: string,
  parser: Parser,
): void {
  const reparsed = parser.parse(blanked);
  if (!reparsed) return;
  try {
    const calls = macros.flatMap((macro) =>
      descendants(reparsed.rootNode, CALLS, macro.startPosition, macro.endPosition),
    );
    engine.reportCalls(calls);
    const inMacro = (node: SyntaxNode) =>
      macros.some(
        (macro) => node.startIndex >= macro.startIndex && node.endIndex <= macro.endIndex,
      );
    reportConstants(
      engine,
      reader,
      nodesSpelling(reparsed.rootNode, blanked, CONSTANT_NAMES).filter(inMacro),
    );
  } finally {
    reparsed.delete();
  }
}

function detectInTree(root: SyntaxNode, text: string, parser: Parser): SourceFileReport {
  const reader = new RustReader(RUST_TABLES);
  const engine = new MatchEngine(RUST_TABLES, reader);
  const nodes = typedDescendants(root, [...RUST_DECLARATIONS, ...CALLS, 'macro_invocation']);
  const declarations: readonly string[] = RUST_DECLARATIONS;
  reader.index(nodes.filter(({ type }) => declarations.includes(type)));
  engine.reportCalls(nodes.filter(({ type }) => CALLS.includes(type)).map(({ node }) => node));
  reportConstants(engine, reader, nodesSpelling(root, text, CONSTANT_NAMES));
  const macros = macrosToReparse(nodes);
  if (macros.length > 0) {
    reportInMacros(engine, reader, macros, withMacroNamesBlanked(text, macros), parser);
  }
  return engine.report();
}

export const rustDetector = treeDetector({
  language: 'rust',
  extensions: ['.rs'],
  grammar: 'rust',
  mayContain: prefilter,
  read: (root, text, { parser }) => detectInTree(root, text, parser),
});
