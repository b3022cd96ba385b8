/**
 * Small grammar-neutral helpers over tree-sitter trees for the C#, Rust, Ruby and PHP
 * detectors: collecting nodes, reading literals, and a file-scope table of names.
 */
import type { SyntaxNode } from './parser.js';

/** Files larger than this are not parsed: generated or vendored code, not first-party source. */
export const MAX_SOURCE_CHARS = 2_000_000;

/** 1-based line of a node's first character. */
export function lineOf(node: SyntaxNode): number {
  return node.startPosition.row + 1;
}

/** Every descendant of `root` (itself included) whose type is one of `types`, in source order. */
export function nodesOfType(
  root: SyntaxNode,
  types: readonly string[],
  from?: SyntaxNode['startPosition'],
  to?: SyntaxNode['endPosition'],
): SyntaxNode[] {
  const found: SyntaxNode[] = [];
  for (const node of root.descendantsOfType([...types], from, to)) if (node) found.push(node);
  return found;
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

/** The named children of a node, without the nulls the binding's typing allows. */
export function namedChildrenOf(node: SyntaxNode): SyntaxNode[] {
  const out: SyntaxNode[] = [];
  for (const child of node.namedChildren) if (child) out.push(child);
  return out;
}

/** The named children that are code: comments (`comment`, `line_comment`, ...) left out. */
export function codeChildrenOf(node: SyntaxNode): SyntaxNode[] {
  const out: SyntaxNode[] = [];
  for (const child of node.namedChildren)
    if (child && !child.type.endsWith('comment')) out.push(child);
  return out;
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
  for (const child of node.namedChildren) {
    if (!child) continue;
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

const INTEGER = /^(0[xX][0-9a-fA-F_]+|0[bB][01_]+|0[oO][0-7_]+|[0-9][0-9_]*)/;

/** The value of an integer literal as any of the four languages write it (2_048, 0x800, 2048u32). */
export function integerLiteral(text: string): number | undefined {
  const match = INTEGER.exec(text.trim());
  if (!match?.[1]) return undefined;
  const digits = match[1].replaceAll('_', '');
  const value = /^0[xXbBoO]/.test(digits)
    ? Number(digits.toLowerCase().replace(/^0o/, '0o'))
    : Number.parseInt(digits, 10);
  return Number.isSafeInteger(value) ? value : undefined;
}

/** Constant folding for the arithmetic people write key sizes with (`1 << 11`, `1024 * 2`). */
export function foldIntegers(operator: string, left: number, right: number): number | undefined {
  let value: number | undefined;
  if (operator === '+') value = left + right;
  else if (operator === '-') value = left - right;
  else if (operator === '*') value = left * right;
  else if (operator === '/' && right !== 0) value = Math.trunc(left / right);
  else if (operator === '<<' && right >= 0 && right < 31) value = left * 2 ** right;
  return value !== undefined && Number.isSafeInteger(value) ? value : undefined;
}

/** Something a name is bound to in a file: a value expression and/or a declared type. */
export interface Binding {
  /** Where the name is bound (start index of the declaration), to prefer the nearest one. */
  at: number;
  value?: SyntaxNode | undefined;
  type?: SyntaxNode | undefined;
  /** A parameter: its value is the argument at `index` where the file calls `method`. */
  argumentOf?: { method: string; index: number } | undefined;
}

/**
 * The names bound in one file, looked up by name alone (no scopes): the binding nearest before
 * the use wins, else the first one after it (a field declared below the method that reads it).
 */
export class FileBindings {
  private readonly byName = new Map<string, Binding[]>();

  /** Adds a binding, keeping each name's list ordered by position (mostly an append). */
  add(name: string, binding: Binding): void {
    const list = this.byName.get(name);
    if (!list) {
      this.byName.set(name, [binding]);
      return;
    }
    let index = list.length;
    while (index > 0 && (list[index - 1]?.at ?? 0) > binding.at) index -= 1;
    list.splice(index, 0, binding);
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  resolve(name: string, at: number): Binding | undefined {
    const list = this.byName.get(name);
    if (!list) return undefined;
    // Binary search for the last binding at or before the use.
    let low = 0;
    let high = list.length - 1;
    let best = -1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      if ((list[middle]?.at ?? 0) <= at) {
        best = middle;
        low = middle + 1;
      } else high = middle - 1;
    }
    return list[best] ?? list[0];
  }
}
