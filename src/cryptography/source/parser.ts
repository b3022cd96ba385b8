/**
 * Loads tree-sitter grammars (the WebAssembly builds VS Code ships in
 * @vscode/tree-sitter-wasm) once per process. Parsing is synchronous after the first load.
 */
import TreeSitter from '@vscode/tree-sitter-wasm';
import { type Grammar, grammarFile } from './grammars.js';

export type { Grammar } from './grammars.js';
export type SyntaxTree = TreeSitter.Tree;
export type SyntaxNode = TreeSitter.Node;

let initialised: Promise<void> | null = null;
const languages = new Map<Grammar, Promise<TreeSitter.Language>>();
const parsers = new Map<Grammar, TreeSitter.Parser>();

function init(): Promise<void> {
  initialised ??= TreeSitter.Parser.init();
  return initialised;
}

async function language(grammar: Grammar): Promise<TreeSitter.Language> {
  await init();
  let loading = languages.get(grammar);
  if (!loading) {
    loading = TreeSitter.Language.load(grammarFile(grammar));
    languages.set(grammar, loading);
  }
  return loading;
}

/** A parser for one grammar, created once; its trees must be deleted by the caller. */
export async function parserFor(grammar: Grammar): Promise<TreeSitter.Parser> {
  const existing = parsers.get(grammar);
  if (existing) return existing;
  const loaded = await language(grammar);
  const parser = new TreeSitter.Parser();
  parser.setLanguage(loaded);
  parsers.set(grammar, parser);
  return parser;
}

/** Parses `text`, hands the tree to `read` and frees the tree's WebAssembly memory after. */
export async function withSyntaxTree<T>(
  grammar: Grammar,
  text: string,
  read: (tree: SyntaxTree) => T,
): Promise<T> {
  const parser = await parserFor(grammar);
  const tree = parser.parse(text);
  if (!tree) throw new Error(`tree-sitter could not parse the ${grammar} text`);
  try {
    return read(tree);
  } finally {
    tree.delete();
  }
}
