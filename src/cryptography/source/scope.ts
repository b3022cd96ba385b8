/**
 * The evaluation machinery every language shares: names bound in a file (imports, constants,
 * variables, fields, small functions) looked up by position, and a memoised evaluator that
 * cannot loop (a name defined through itself is unknown) nor recurse without bound.
 */
import type { SyntaxNode } from './parser.js';
import { UNKNOWN, type Value } from './values.js';

interface Binding {
  start: number;
  value: () => Value;
}

/**
 * Names to values. A file-wide approximation of scope: a use sees the nearest binding of the
 * name before it, or the first one after it (hoisted functions, fields declared below methods).
 */
export interface Bindings {
  add(name: string, start: number, value: () => Value): void;
  lookup(name: string, at: number): Value | undefined;
  has(name: string): boolean;
}

/** A value computed once; reading it again while computing it gives unknown (a cycle). */
export function once(compute: () => Value): () => Value {
  let state: 'idle' | 'busy' | 'done' = 'idle';
  let result: Value = UNKNOWN;
  return () => {
    if (state === 'done') return result;
    if (state === 'busy') return UNKNOWN;
    state = 'busy';
    try {
      result = compute();
    } finally {
      state = 'done';
    }
    return result;
  };
}

export function bindings(): Bindings {
  const byName = new Map<string, Binding[]>();
  return {
    add(name, start, value) {
      const list = byName.get(name);
      const binding = { start, value: once(value) };
      if (list) list.push(binding);
      else byName.set(name, [binding]);
    },
    lookup(name, at) {
      const list = byName.get(name);
      if (!list) return undefined;
      let best: Binding | undefined;
      for (const binding of list) {
        if (binding.start <= at && (!best || binding.start >= best.start)) best = binding;
      }
      return (best ?? list[0])?.value();
    },
    has(name) {
      return byName.has(name);
    },
  };
}

const MAX_DEPTH = 24;

/** Memoises `evaluate` per node and cuts recursion at a fixed depth. */
export function memoised(evaluate: (node: SyntaxNode) => Value): (node: SyntaxNode) => Value {
  const cache = new Map<number, Value>();
  let depth = 0;
  return (node) => {
    const cached = cache.get(node.id);
    if (cached) return cached;
    if (depth >= MAX_DEPTH) return UNKNOWN;
    depth += 1;
    cache.set(node.id, UNKNOWN);
    try {
      const value = evaluate(node);
      cache.set(node.id, value);
      return value;
    } finally {
      depth -= 1;
    }
  };
}

/** Named children of a node, without nulls. */
export function namedChildren(node: SyntaxNode): SyntaxNode[] {
  const out: SyntaxNode[] = [];
  for (let i = 0; i < node.namedChildCount; i += 1) {
    const child = node.namedChild(i);
    if (child) out.push(child);
  }
  return out;
}

/** Descendants of the given types, without nulls, in document order. */
export function descendants(root: SyntaxNode, types: string | string[]): SyntaxNode[] {
  return root.descendantsOfType(types).filter((node): node is SyntaxNode => node !== null);
}

/** The callee text as the code wrote it, whitespace removed and bounded. */
export function apiText(node: SyntaxNode): string {
  const text = node.text.replace(/\s+/g, '');
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

export function lineOf(node: SyntaxNode): number {
  return node.startPosition.row + 1;
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
  for (const node of descendants(root, [...types])) {
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
