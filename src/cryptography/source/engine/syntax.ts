/**
 * Grammar-neutral helpers over tree-sitter trees, for every language's reader: collecting
 * nodes (in one walk), children without comments, literal text, lines and callee text.
 */
import type { SyntaxNode } from '../parser.js';

/** Files larger than this are not parsed: generated or vendored code, not first-party source. */
export const MAX_SOURCE_CHARS = 2_000_000;

const MAX_API_TEXT = 120;

/** A node with its type, read once: each read of a node's type is a call into WebAssembly. */
export interface TypedNode {
  node: SyntaxNode;
  type: string;
}

/** 1-based line of a node's first character. */
export function lineOf(node: SyntaxNode): number {
  return node.startPosition.row + 1;
}

/**
 * Named children of a node, without nulls: one call into WebAssembly for the list (a count and a
 * `namedChild(i)` per child would cost two per child).
 */
export function namedChildren(node: SyntaxNode): SyntaxNode[] {
  return node.namedChildren.filter((child): child is SyntaxNode => child !== null);
}

/** The named children that are code: comments (`comment`, `line_comment`, ...) left out. */
export function codeChildren(node: SyntaxNode): SyntaxNode[] {
  return namedChildren(node).filter((child) => !child.type.endsWith('comment'));
}

/** Descendants (itself included) of the given types, in document order, optionally in a range. */
export function descendants(
  root: SyntaxNode,
  types: string | readonly string[],
  from?: SyntaxNode['startPosition'],
  to?: SyntaxNode['endPosition'],
): SyntaxNode[] {
  const wanted = typeof types === 'string' ? types : [...types];
  return root.descendantsOfType(wanted, from, to).filter((node): node is SyntaxNode => !!node);
}

/** Descendants of the given types (as `descendants`), each with its type read once. */
export function typedDescendants(root: SyntaxNode, types: readonly string[]): TypedNode[] {
  return descendants(root, types).map((node) => ({ node, type: node.type }));
}

/**
 * The named nodes that spell a match of `pattern` (global) exactly, found by searching the
 * text rather than walking the tree: a match inside a comment or a string spans a larger node
 * and is left out. Tree indices and string indices agree (both count UTF-16 units).
 */
export function nodesSpelling(root: SyntaxNode, text: string, pattern: RegExp): SyntaxNode[] {
  const found: SyntaxNode[] = [];
  for (const match of text.matchAll(pattern)) {
    const start = match.index;
    const end = start + match[0].length;
    const node = root.namedDescendantForIndex(start, end);
    if (node && node.startIndex === start && node.endIndex === end) found.push(node);
  }
  return found;
}

/** The nearest ancestor of one of `types`, stopping after `limit` steps. */
export function ancestorOfType(
  node: SyntaxNode,
  types: readonly string[],
  limit = 12,
): SyntaxNode | null {
  let current = node.parent;
  for (let step = 0; current && step < limit; step += 1) {
    if (types.includes(current.type)) return current;
    current = current.parent;
  }
  return null;
}

/**
 * The text of a string literal made only of content pieces (no interpolation), or undefined.
 * `contentTypes` are the grammar's node types for literal text inside the quotes.
 */
export function literalContent(
  node: SyntaxNode,
  contentTypes: ReadonlySet<string>,
): string | undefined {
  let text = '';
  for (const child of namedChildren(node)) {
    if (contentTypes.has(child.type)) text += child.text;
    else if (child.type === 'escape_sequence') text += unescapeSequence(child.text);
    else return undefined;
  }
  return text;
}

function unescapeSequence(sequence: string): string {
  const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', '0': '\0' };
  const letter = sequence.slice(1);
  return simple[letter] ?? letter;
}

/** Text as an API name: whitespace removed and bounded. */
export function tidyApi(raw: string, limit = MAX_API_TEXT): string {
  const text = raw.replace(/\s+/g, '');
  return text.length > limit ? `${text.slice(0, limit - 3)}...` : text;
}

/** The callee text as the code wrote it, whitespace removed and bounded. */
export function apiText(node: SyntaxNode): string {
  return tidyApi(node.text);
}

/** The nodes of one walk of a tree, by type. */
export interface NodesByType {
  /** The nodes of the given types, in document order. */
  of(...types: string[]): SyntaxNode[];
}

/**
 * Walks the tree once for every node type a detector reads (each walk of a large tree costs about
 * as much as a fifth of its parse) and groups the nodes by type.
 */
export function nodesByType(root: SyntaxNode, types: readonly string[]): NodesByType {
  const groups = new Map<string, SyntaxNode[]>();
  for (const node of descendants(root, types)) {
    const group = groups.get(node.type);
    if (group) group.push(node);
    else groups.set(node.type, [node]);
  }
  return {
    of(...wanted) {
      if (wanted.length === 1) return groups.get(wanted[0] ?? '') ?? [];
      const merged = wanted.flatMap((type) => groups.get(type) ?? []);
      return merged.sort((a, b) => a.startIndex - b.startIndex);
    },
  };
}
