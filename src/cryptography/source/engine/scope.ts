/**
 * The names bound in one file, the same for every language: imports, constants, variables,
 * fields, parameters and small functions, looked up by name and position (a file-wide
 * approximation of scope), and a memoised evaluator that cannot loop (a name defined through
 * itself is unknown) nor recurse without bound.
 */
import type { SyntaxNode } from '../parser.js';
import { UNKNOWN, type Value } from './values.js';

/**
 * A list of bindings per name, each at a position: a use sees the nearest binding of the name
 * at or before it, else the first one after it (hoisted functions, fields declared below the
 * methods that read them).
 */
export class FileBindings<T extends { at: number }> {
  private readonly byName = new Map<string, T[]>();

  /** Adds a binding, keeping each name's list ordered by position (mostly an append). */
  add(name: string, binding: T): void {
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

  resolve(name: string, at: number): T | undefined {
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

/** A name bound to an expression of the file and/or a declared type (the table languages' readers). */
export interface NodeBinding {
  /** Where the name is bound (start index of the declaration), to prefer the nearest one. */
  at: number;
  value?: SyntaxNode | undefined;
  type?: SyntaxNode | undefined;
  /** A parameter: its value is the argument at `index` where the file calls `method`. */
  argumentOf?: { method: string; index: number } | undefined;
}

/** Names bound to values computed on first use (the evaluators that bind values, not nodes). */
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
  const table = new FileBindings<{ at: number; value: () => Value }>();
  return {
    add: (name, start, value) => table.add(name, { at: start, value: once(value) }),
    lookup: (name, at) => table.resolve(name, at)?.value(),
    has: (name) => table.has(name),
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
