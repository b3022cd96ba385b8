import type { DependencyScope } from '../types';

/**
 * Scope by reachability, for lockfiles that record edges but no dev/optional flags (yarn, pnpm 9):
 * a package reachable from a production root through required edges is runtime; reachable only
 * once optional edges or optional roots are allowed, optional; reachable only from dev roots,
 * development. Unreached packages (orphans, or no roots known) get null and the caller's default.
 */
export interface ScopeGraph {
  /** Node count; nodes are 0..size-1. */
  size: number;
  edges: readonly (readonly Edge[])[];
}

export interface Edge {
  to: number;
  optional: boolean;
}

export interface Roots {
  runtime: Iterable<number>;
  optional: Iterable<number>;
  development: Iterable<number>;
}

export function scopesByReachability(graph: ScopeGraph, roots: Roots): (DependencyScope | null)[] {
  const scopes: (DependencyScope | null)[] = new Array(graph.size).fill(null);
  // Breadth-first passes, no recursion: deep chains cannot overflow the stack. Start nodes are
  // expanded even when an earlier pass scoped them, so optional edges out of runtime packages and
  // dev roots that are also runtime still reach their own subtrees.
  const pass = (start: Iterable<number>, scope: DependencyScope, followOptional: boolean) => {
    const queue: number[] = [];
    const queued = new Set<number>();
    for (const node of start) {
      if (node < 0 || node >= graph.size || queued.has(node)) continue;
      queued.add(node);
      queue.push(node);
      if (scopes[node] === null) scopes[node] = scope;
    }
    for (let head = 0; head < queue.length; head++) {
      for (const edge of graph.edges[queue[head] as number] ?? []) {
        if ((edge.optional && !followOptional) || scopes[edge.to] !== null) continue;
        scopes[edge.to] = scope;
        queue.push(edge.to);
      }
    }
  };
  pass(roots.runtime, 'runtime', false);
  const runtimeNodes: number[] = [];
  for (let node = 0; node < graph.size; node++) {
    if (scopes[node] === 'runtime') runtimeNodes.push(node);
  }
  pass([...runtimeNodes, ...roots.optional], 'optional', true);
  pass(roots.development, 'development', true);
  return scopes;
}
