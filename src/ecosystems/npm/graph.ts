import type { DependencyScope, DependencySource, ExtractedDependency } from '../types';
import { dedupe, makeDependency } from './common';

/**
 * The package graph of a yarn or pnpm lockfile. Those formats record edges (and which project
 * declared what) but no per-package dev/optional flags, so scope comes from reachability: a
 * package reachable from a production root through required edges is runtime; reachable only once
 * optional edges or optional roots count, optional; reachable only from dev roots, development.
 * Unreached packages (orphans, or no project roots known) are runtime.
 */

export interface LockPackage {
  name: string;
  version: string | null;
  line: number | null;
  source: DependencySource;
  /** A scope the format states outright (pnpm 5/6 `dev` flags); wins over reachability. */
  scope?: DependencyScope;
  /** The format marks the package optional (pnpm `optional: true`). */
  optional?: boolean;
  /** First-party (a workspace): always direct. */
  workspace?: boolean;
  /** The project's own package (a workspace root or member): reported with scope `self`. */
  self?: boolean;
}

interface Edge {
  to: number;
  optional: boolean;
}

export class LockGraph {
  readonly packages: LockPackage[] = [];
  private readonly edges: Edge[][] = [];
  private readonly parents: Set<string>[] = [];
  private readonly incoming: boolean[] = [];
  private readonly direct: boolean[] = [];
  private readonly roots: Record<'runtime' | 'optional' | 'development', number[]> = {
    runtime: [],
    optional: [],
    development: [],
  };
  private hasProjectRoots = false;

  add(pkg: LockPackage): number {
    this.packages.push(pkg);
    this.edges.push([]);
    this.parents.push(new Set());
    this.incoming.push(false);
    this.direct.push(pkg.workspace === true);
    return this.packages.length - 1;
  }

  /** `from` depends on `to`. */
  edge(from: number, to: number, optional: boolean): void {
    if (from === to) return;
    this.edges[from]?.push({ to, optional });
    this.parents[to]?.add((this.packages[from] as LockPackage).name);
    this.incoming[to] = true;
  }

  /**
   * `from` is built from `to` (a Berry `patch:` entry and the package it patches): `to` gets the
   * reachability of `from` without counting `from` as a dependent of its own base.
   */
  builtFrom(from: number, to: number): void {
    if (from === to) return;
    this.edges[from]?.push({ to, optional: false });
    this.incoming[to] = true;
  }

  /** A project (root or workspace, named `projectName` when it is itself a package) declares `to`. */
  root(to: number, scope: 'runtime' | 'optional' | 'development', projectName: string | null) {
    this.hasProjectRoots = true;
    this.roots[scope].push(to);
    this.direct[to] = true;
    if (projectName !== null) this.parents[to]?.add(projectName);
  }

  /**
   * Packages nothing depends on and no project declared become direct runtime roots (for projects
   * whose declarations cannot all be read, such as workspace members). Call after all edges.
   */
  rootOrphans(): void {
    this.hasProjectRoots = true;
    this.packages.forEach((_, index) => {
      if (this.incoming[index] || this.direct[index]) return;
      this.roots.runtime.push(index);
      this.direct[index] = true;
    });
  }

  private scopes(): DependencyScope[] {
    const size = this.packages.length;
    const scopes: (DependencyScope | null)[] = new Array(size).fill(null);
    // Breadth-first passes, no recursion. Start nodes are expanded even when an earlier pass
    // scoped them, so optional edges out of runtime packages still reach their subtrees.
    const pass = (start: Iterable<number>, scope: DependencyScope, followOptional: boolean) => {
      const queue: number[] = [];
      const queued = new Set<number>();
      for (const node of start) {
        if (queued.has(node)) continue;
        queued.add(node);
        queue.push(node);
        if (scopes[node] === null) scopes[node] = scope;
      }
      for (let head = 0; head < queue.length; head++) {
        for (const edge of this.edges[queue[head] as number] ?? []) {
          if ((edge.optional && !followOptional) || scopes[edge.to] !== null) continue;
          scopes[edge.to] = scope;
          queue.push(edge.to);
        }
      }
    };
    const runtimeRoots = this.hasProjectRoots
      ? this.roots.runtime
      : this.packages.map((_, index) => index).filter((index) => !this.incoming[index]);
    pass(runtimeRoots, 'runtime', false);
    const runtime = scopes.flatMap((scope, index) => (scope === 'runtime' ? [index] : []));
    pass([...runtime, ...this.roots.optional], 'optional', true);
    pass(this.roots.development, 'development', true);
    return scopes.map((scope, index) => {
      const pkg = this.packages[index] as LockPackage;
      if (pkg.scope) return pkg.scope;
      const reached = scope ?? 'runtime';
      return reached === 'runtime' && pkg.optional ? 'optional' : reached;
    });
  }

  /**
   * One dependency per package, exact duplicates (name, version, scope) merged. Without any
   * project roots, packages nothing depends on are taken as the direct ones.
   */
  toDependencies(include: (index: number) => boolean = () => true): ExtractedDependency[] {
    const scopes = this.scopes();
    const out: ExtractedDependency[] = [];
    this.packages.forEach((pkg, index) => {
      if (!include(index)) return;
      out.push(
        makeDependency({
          name: pkg.name,
          version: pkg.version,
          resolution: pkg.version === null ? 'unpinned' : 'resolved',
          scope: pkg.self ? 'self' : (scopes[index] as DependencyScope),
          direct:
            !pkg.self &&
            (this.direct[index] === true || (!this.hasProjectRoots && !this.incoming[index])),
          line: pkg.line,
          parents: this.parents[index],
          source: pkg.source,
        }),
      );
    });
    return dedupe(out);
  }
}
