/**
 * Rust detector: the rsa, p256/p384/k256, ring, dalek, openssl and jsonwebtoken crates' uses
 * of quantum-vulnerable public-key cryptography, read from the tree-sitter syntax tree.
 */
import { MatchEngine } from '../engine-b.js';
import { parserFor, type SyntaxNode, withSyntaxTree } from '../parser.js';
import { keywordPrefilter } from '../prefilter-b.js';
import { ancestorOfType, MAX_SOURCE_CHARS, nodesOfType } from '../syntax-b.js';
import type { LanguageDetector, SourceFileReport } from '../types.js';
import { RUST_KEYWORDS, RUST_TABLES } from './api.js';
import { RUST_DECLARATIONS, RustReader } from './reader.js';

const CALLS = ['call_expression'];
const CONSTANTS = ['scoped_identifier', 'identifier'];
const VALUE_WRAPPERS = new Set(['reference_expression', 'parenthesized_expression']);
const BINDING_PARENTS = new Set(['const_item', 'static_item', 'let_declaration']);

const prefilter = keywordPrefilter(RUST_KEYWORDS);
/** A macro body worth parsing again: it names a crate or calls a method of the tables. */
const MACRO_BODY = new RegExp(
  `\\b(?:${[...RUST_TABLES.methods.keys()].join('|')})\\b|${prefilter.source}`,
);

const NESTED_MACRO = /\b[A-Za-z_][A-Za-z0-9_]*!(?=\s*[([{])/g;

type Parser = Awaited<ReturnType<typeof parserFor>>;

/** A library constant written on its own, not in a `use`, not a path's inner part, not bound. */
function isStandaloneConstant(node: SyntaxNode, names: ReadonlySet<string>): boolean {
  const last = node.type === 'identifier' ? node.text : node.childForFieldName('name')?.text;
  if (!last || !names.has(last)) return false;
  let parent = node.parent;
  if (parent?.type === 'scoped_identifier' || parent?.type === 'scoped_use_list') return false;
  while (parent && VALUE_WRAPPERS.has(parent.type)) parent = parent.parent;
  if (!parent || BINDING_PARENTS.has(parent.type)) return false;
  return !ancestorOfType(node, ['use_declaration', 'use_list'], 6);
}

/** Macros whose arguments may hold a use: tree-sitter leaves them as token trees. */
function macrosToReparse(nodes: readonly SyntaxNode[]): SyntaxNode[] {
  return nodes.filter((node) => {
    if (node.type !== 'macro_invocation') return false;
    if (node.childForFieldName('macro')?.text === 'macro_rules') return false;
    const body = node.namedChildren.find((child) => child?.type === 'token_tree');
    return body ? MACRO_BODY.test(body.text) : false;
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

function reportNodes(engine: MatchEngine, reader: RustReader, nodes: readonly SyntaxNode[]): void {
  engine.reportCalls(nodes.filter((node) => CALLS.includes(node.type)));
  const names = RUST_TABLES.known.lastSegments;
  const constants = nodes.filter(
    (node) => CONSTANTS.includes(node.type) && isStandaloneConstant(node, names),
  );
  engine.reportConstants(constants, (node) => reader.pathOf(node));
}

function detectInTree(root: SyntaxNode, text: string, parser: Parser): SourceFileReport {
  const reader = new RustReader(RUST_TABLES);
  const engine = new MatchEngine(RUST_TABLES, reader);
  const nodes = nodesOfType(root, [
    ...RUST_DECLARATIONS,
    ...CALLS,
    ...CONSTANTS,
    'macro_invocation',
  ]);
  reader.index(
    nodes.filter((node) => (RUST_DECLARATIONS as readonly string[]).includes(node.type)),
  );
  reportNodes(engine, reader, nodes);
  const macros = macrosToReparse(nodes);
  if (macros.length === 0) return engine.report();
  const reparsed = parser.parse(withMacroNamesBlanked(text, macros));
  if (!reparsed) return engine.report();
  try {
    const inMacros = macros.flatMap((macro) =>
      nodesOfType(
        reparsed.rootNode,
        [...CALLS, ...CONSTANTS],
        macro.startPosition,
        macro.endPosition,
      ),
    );
    reportNodes(engine, reader, inMacros);
  } finally {
    reparsed.delete();
  }
  return engine.report();
}

export const rustDetector: LanguageDetector = {
  language: 'rust',
  extensions: ['.rs'],
  prefilter,
  async detect(_path: string, text: string): Promise<SourceFileReport> {
    if (text.length > MAX_SOURCE_CHARS || !prefilter(text)) return { uses: [], algorithms: [] };
    const parser = await parserFor('rust');
    return withSyntaxTree('rust', text, (tree) => detectInTree(tree.rootNode, text, parser));
  },
};
