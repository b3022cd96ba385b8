/**
 * A table keyed by fully qualified API names (`System.Security.Cryptography.RSA.Create`,
 * `rsa.RsaPrivateKey.new`, `OpenSSL.PKey.RSA.new`, `openssl_pkey_new`), looked up with the
 * candidate expansions of a name as written in a file (itself, through aliases, through
 * imported namespaces). An entry may also be found by its last `bare` segments alone when those
 * name the API unambiguously (`RSA.Create` means System.Security.Cryptography's everywhere).
 */

export interface PathEntry {
  /** Fully qualified name, segments joined with dots, `new` last for constructors. */
  path: string;
  /** Trailing segments that identify the entry when written alone (default: the whole path). */
  bare?: number;
}

export class PathTable<T extends PathEntry> {
  private readonly full = new Map<string, T>();
  private readonly bare = new Map<string, T>();
  /** Every last segment in the table: a cheap test before expanding a name. */
  readonly lastSegments = new Set<string>();

  constructor(entries: readonly T[]) {
    for (const entry of entries) {
      const segments = entry.path.split('.');
      this.full.set(entry.path, entry);
      this.lastSegments.add(segments[segments.length - 1] ?? '');
      if (entry.bare !== undefined) this.bare.set(segments.slice(-entry.bare).join('.'), entry);
    }
  }

  /** The entry for a name as written (`written`) given its expansions in this file. */
  lookup(written: readonly string[], expansions: readonly (readonly string[])[]): T | undefined {
    for (const candidate of [written, ...expansions]) {
      if (!this.lastSegments.has(candidate[candidate.length - 1] ?? '')) continue;
      const hit = this.full.get(candidate.join('.'));
      if (hit) return hit;
    }
    const bareHit = this.bare.get(written.join('.'));
    if (bareHit && written.length === (bareHit.bare ?? 0)) return bareHit;
    return undefined;
  }
}

/** Imports of one file: short names bound to qualified paths, and namespaces opened whole. */
export class ImportScope {
  readonly aliases = new Map<string, string[]>();
  readonly opened: string[][] = [];

  alias(name: string, path: readonly string[]): void {
    if (name && path.length > 0) this.aliases.set(name, [...path]);
  }

  open(path: readonly string[]): void {
    if (path.length > 0) this.opened.push([...path]);
  }

  /** The qualified paths a written name may stand for, most specific first. */
  expand(written: readonly string[]): string[][] {
    const [head, ...rest] = written;
    if (head === undefined) return [];
    const out: string[][] = [];
    const aliased = this.aliases.get(head);
    if (aliased) out.push([...aliased, ...rest]);
    for (const namespace of this.opened) out.push([...namespace, ...written]);
    if (aliased) for (const namespace of this.opened) out.push([...namespace, ...aliased, ...rest]);
    return out;
  }
}
