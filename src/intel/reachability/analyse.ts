import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { type ComputedTarget, couldLoad } from './computed-imports';
import { goImports } from './go-imports';
import { jsImports } from './js-imports';
import {
  goModuleOf,
  isGoStdlib,
  isPythonStdlib,
  npmPackageOf,
  pythonDistributionsOf,
} from './package-names';
import { pythonImports } from './python-imports';
import {
  DEFAULT_REACHABILITY_LIMITS,
  listSourceFiles,
  type ReachabilityLimits,
  readSource,
  type SourceFiles,
  timeoutFor,
} from './source-tree';
import { implicitUses, type ToolUse, toolingUses } from './tooling';

/**
 * Import-level reachability of a checked-out repository (docs/reachability.md): for npm, PyPI
 * and Go, whether each dependency is imported by the repository's own code, directly or through
 * the dependency chain those imports pull in (the lockfile's edges). No call graph.
 */

export type Reachability = 'imported' | 'used_by_tooling' | 'not_imported' | 'unknown';
export const REACHABILITIES: readonly Reachability[] = [
  'imported',
  'used_by_tooling',
  'not_imported',
  'unknown',
];

export interface ReachabilityEvidence {
  /**
   * The first-party file and 1-based line of the first import (files in path order); for
   * used_by_tooling the script or configuration that names it.
   */
  file: string;
  line: number;
  /** The import as written (`lodash/fp`, `yaml`, `golang.org/x/text/language`). */
  import: string;
  /** From the directly imported package down to this one (`[express, body-parser, qs]`). */
  chain: string[];
}

export interface ReachabilityFact {
  ecosystem: 'npm' | 'PyPI' | 'Go';
  name: string;
  reachability: Reachability;
  evidence: ReachabilityEvidence | null;
  /** Why used_by_tooling, not_imported or unknown (which tool, what was not read, a computed import...). */
  reason: string | null;
}

export interface ReachabilityDependency {
  ecosystem: string;
  name: string;
  scope: string;
  parents: readonly string[];
  /** The dependency file that declares it (`examples/web/package.json`); absent: anywhere. */
  manifest?: string;
}

type Analysed = ReachabilityFact['ecosystem'];

interface Site {
  file: string;
  line: number;
  import: string;
}

/** What one language's imports say: the packages imported directly, and what makes it partial. */
interface Direct {
  imported: Map<string, Site>;
  /** Set when not_imported cannot be said for a package without evidence. */
  incomplete: string | null;
  /** Source files of the language read. */
  files: number;
  /** Computed imports that may load packages (npm), in file order. */
  computed?: ComputedSite[];
  /** Packages named by scripts and tool configurations (npm). */
  tooling?: Map<string, ToolUse>;
}

interface ComputedSite {
  file: string;
  line: number;
  target: Exclude<ComputedTarget, { kind: 'literal' | 'local' }>;
}

const LANGUAGE: Record<Analysed, keyof SourceFiles['files']> = {
  npm: 'js',
  PyPI: 'python',
  Go: 'go',
};
const LANGUAGE_LABEL: Record<Analysed, string> = {
  npm: 'JavaScript/TypeScript',
  PyPI: 'Python',
  Go: 'Go',
};

function bySite(a: Site, b: Site): number {
  return a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line;
}

function remember(imported: Map<string, Site>, name: string, site: Site): void {
  const seen = imported.get(name);
  if (!seen || bySite(site, seen) < 0) imported.set(name, site);
}

function skippedReason(sources: SourceFiles, language: keyof SourceFiles['files']): string | null {
  const skipped = sources.skipped[language];
  if (skipped.length === 0) return null;
  return `${skipped.length} source file(s) not read (size or count limits), first ${skipped[0]}`;
}

async function npmDirect(
  root: string,
  sources: SourceFiles,
  names: ReadonlySet<string>,
  limits: ReachabilityLimits,
): Promise<Direct> {
  const files = sources.files.js;
  const result = await jsImports(root, files, timeoutFor(sources.bytes.js, limits));
  if (result.timedOut) {
    return { imported: new Map(), incomplete: 'the JavaScript parse ran out of time', files: 0 };
  }
  const imported = new Map<string, Site>();
  for (const site of result.imports) {
    const name = npmPackageOf(site.specifier) ?? declaredBuiltin(site.specifier, names);
    if (name !== null && names.has(name)) {
      remember(imported, name, { file: site.file, line: site.line, import: site.specifier });
    }
  }
  const tooling = await toolingUses(root, sources.tooling, sources.lockfiles, names);
  implicitUses(sources, result.styles, names, tooling.used, imported);
  const incomplete =
    (result.failed.length > 0 ? `${result.failed[0]} could not be parsed` : null) ??
    skippedReason(sources, 'js') ??
    tooling.incomplete ??
    (sources.skipped.tooling[0]
      ? `the tooling file ${sources.skipped.tooling[0]} was not read`
      : null);
  const computed = result.computed.sort((a, b) =>
    bySite({ ...a, import: '' }, { ...b, import: '' }),
  ) as ComputedSite[];
  return { imported, incomplete, files: files.length, computed, tooling: tooling.used };
}

/**
 * `buffer`, `events`, `process`, `util`...: Node's builtins, but a declared dependency of that
 * name is what a bundler loads for browser code, so the import counts for it.
 */
function declaredBuiltin(specifier: string, names: ReadonlySet<string>): string | null {
  if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.includes(':'))
    return null;
  const name = specifier.split('/')[0] as string;
  return names.has(name) ? name : null;
}

/** Top-level module names the repository defines itself (its own packages and modules). */
function firstPartyModules(files: readonly string[]): Set<string> {
  const own = new Set<string>();
  for (const file of files) {
    const parts = file.split('/');
    const base = (parts.pop() as string).replace(/\.py$/, '');
    own.add(base);
    for (const part of parts) own.add(part);
  }
  return own;
}

async function pythonDirect(
  root: string,
  sources: SourceFiles,
  names: ReadonlySet<string>,
  limits: ReachabilityLimits,
): Promise<Direct> {
  const files = sources.files.python;
  const own = firstPartyModules(files);
  const imported = new Map<string, Site>();
  const deadline = Date.now() + timeoutFor(sources.bytes.python, limits);
  let incomplete: string | null = null;
  let unresolved: Site | null = null;
  const computed: ComputedSite[] = [];
  for (const file of files) {
    if (Date.now() > deadline)
      return { imported, incomplete: 'the Python parse ran out of time', files: 0 };
    const text = await readSource(root, file);
    if (text === null) {
      incomplete ??= `${file} could not be read`;
      continue;
    }
    const found = pythonImports(text);
    for (const { line, prefix } of found.computed) {
      const target = pythonTarget(prefix, own);
      if (target) computed.push({ file, line, target });
    }
    for (const { module, line } of found.imports) {
      const top = module.split('.')[0] as string;
      if (isPythonStdlib(top) || own.has(top)) continue;
      const site = { file, line, import: module };
      const matches = pythonDistributionsOf(top).filter((name) => names.has(name));
      for (const name of matches) remember(imported, name, site);
      if (matches.length === 0 && (!unresolved || bySite(site, unresolved) < 0)) unresolved = site;
    }
    await yieldToEventLoop();
  }
  incomplete ??= skippedReason(sources, 'python');
  if (unresolved) {
    incomplete ??= `import ${unresolved.import} (${unresolved.file}:${unresolved.line}) names no known distribution`;
  }
  return { imported, incomplete, files: files.length, computed };
}

/**
 * What a computed Python import could load, from its literal prefix: a relative, standard-library
 * or first-party module nothing; a known top-level module (`yaml.`) its distributions; a partial
 * name (`flask_`) the distributions named so; no literal prefix any.
 */
function pythonTarget(
  prefix: string | null,
  own: ReadonlySet<string>,
): ComputedSite['target'] | null {
  if (prefix === null || prefix === '') return { kind: 'any' };
  if (prefix.startsWith('.')) return null;
  const dot = prefix.indexOf('.');
  if (dot === -1) {
    return { kind: 'prefix', prefix: prefix.toLowerCase().replace(/[-_.]+/g, '-') };
  }
  const top = prefix.slice(0, dot);
  if (isPythonStdlib(top) || own.has(top)) return null;
  return { kind: 'names', names: pythonDistributionsOf(top) };
}

async function goDirect(
  root: string,
  sources: SourceFiles,
  names: ReadonlySet<string>,
  limits: ReachabilityLimits,
): Promise<Direct> {
  const files = sources.files.go;
  const modules = [...names];
  const imported = new Map<string, Site>();
  const deadline = Date.now() + timeoutFor(sources.bytes.go, limits);
  let incomplete: string | null = null;
  for (const file of files) {
    if (Date.now() > deadline)
      return { imported, incomplete: 'the Go parse ran out of time', files: 0 };
    const text = await readSource(root, file);
    if (text === null) {
      incomplete ??= `${file} could not be read`;
      continue;
    }
    for (const { path, line } of goImports(text)) {
      if (isGoStdlib(path)) continue;
      const module = goModuleOf(path, modules);
      if (module !== null) remember(imported, module, { file, line, import: path });
    }
    await yieldToEventLoop();
  }
  return { imported, incomplete: incomplete ?? skippedReason(sources, 'go'), files: files.length };
}

/** The longest evidence chain kept: its head and tail, the elided middle named by a marker. */
const CHAIN_HEAD = 16;
const CHAIN_TAIL = 16;

interface Reached {
  site: Site;
  /** The package this one was reached from; null for a direct import. */
  via: string | null;
  depth: number;
  /** The chain's first CHAIN_HEAD packages, shared by every package deeper down. */
  head: readonly string[];
}

/**
 * Packages reachable from the directly imported ones through the dependency edges (a package's
 * `parents`), breadth first from the imports in file order. Each keeps only the package it was
 * reached from, so a chain 200,000 deep costs linear memory (no recursion, no chain copies).
 */
function closure(
  direct: Map<string, Site>,
  dependencies: readonly ReachabilityDependency[],
): Map<string, Reached> {
  const children = childrenOf(dependencies);
  const reached = new Map<string, Reached>();
  const queue = [...direct.entries()].sort((a, b) => bySite(a[1], b[1])).map(([name]) => name);
  for (const name of queue) {
    reached.set(name, { site: direct.get(name) as Site, via: null, depth: 1, head: [name] });
  }
  for (let head = 0; head < queue.length; head++) {
    const name = queue[head] as string;
    const from = reached.get(name) as Reached;
    for (const child of [...(children.get(name) ?? [])].sort()) {
      if (reached.has(child)) continue;
      const head = from.depth < CHAIN_HEAD ? [...from.head, child] : from.head;
      reached.set(child, { site: from.site, via: name, depth: from.depth + 1, head });
      queue.push(child);
    }
  }
  return reached;
}

function childrenOf(dependencies: readonly ReachabilityDependency[]): Map<string, Set<string>> {
  const children = new Map<string, Set<string>>();
  for (const dependency of dependencies) {
    for (const parent of dependency.parents) {
      const set = children.get(parent) ?? new Set<string>();
      set.add(dependency.name);
      children.set(parent, set);
    }
  }
  return children;
}

/**
 * From the directly imported package down to `name`; past CHAIN_HEAD + CHAIN_TAIL packages the
 * middle is one marker (`… 199968 more …`), so evidence stays small on very deep chains.
 */
function chainTo(name: string, reached: ReadonlyMap<string, Reached>): string[] {
  const last = reached.get(name) as Reached;
  if (last.depth <= CHAIN_HEAD) return [...last.head];
  const tail: string[] = [];
  let current: string | null = name;
  for (let i = 0; i < CHAIN_TAIL && current !== null; i++) {
    if (i >= last.depth - CHAIN_HEAD) break; // already in the head
    tail.push(current);
    current = (reached.get(current) as Reached).via;
  }
  tail.reverse();
  const middle = last.depth - CHAIN_HEAD - tail.length;
  return middle > 0 ? [...last.head, `… ${middle} more …`, ...tail] : [...last.head, ...tail];
}

/** The directory of the nearest manifest at or above `file`; null when none is. */
function contextOf(file: string, manifestDirs: ReadonlySet<string>): string | null {
  let dir = file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : '';
  for (;;) {
    if (manifestDirs.has(dir)) return dir;
    if (dir === '') return null;
    dir = dir.includes('/') ? dir.slice(0, dir.lastIndexOf('/')) : '';
  }
}

function dirOf(path: string): string {
  return path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
}

/**
 * What the computed imports could load: for each, the packages declared by the manifest nearest
 * to its file (a computed `require(name)` in `examples/x/` loads what `examples/x/package.json`
 * declares) that its literal prefix allows, and their chains. The first such import by file and
 * line is kept for each package, as its reason.
 */
function computedReach(
  computed: readonly ComputedSite[],
  dependencies: readonly ReachabilityDependency[],
): Map<string, Reached> {
  const manifestDirs = new Set(
    dependencies.flatMap((d) => (d.manifest ? [dirOf(d.manifest)] : [])),
  );
  const seen = new Set<string>();
  const direct = new Map<string, Site>();
  for (const site of computed) {
    const context = contextOf(site.file, manifestDirs);
    const key = `${context}\0${site.target.kind === 'prefix' ? site.target.prefix : ''}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const what =
      site.target.kind === 'prefix'
        ? `packages named ${site.target.prefix}…`
        : `any package of ${context === null || context === '' ? 'the repository' : context}`;
    for (const dependency of dependencies) {
      const inContext =
        context === null || !dependency.manifest || dirOf(dependency.manifest) === context;
      if (!inContext || !couldLoad(site.target, dependency.name) || direct.has(dependency.name)) {
        continue;
      }
      direct.set(dependency.name, { file: site.file, line: site.line, import: what });
    }
  }
  return closure(direct, dependencies);
}

function toolingReach(
  tooling: ReadonlyMap<string, ToolUse> | undefined,
  dependencies: readonly ReachabilityDependency[],
): { reached: Map<string, Reached>; how: Map<string, string> } {
  const direct = new Map<string, Site>();
  const how = new Map<string, string>();
  for (const [name, use] of tooling ?? []) {
    direct.set(name, { file: use.file, line: use.line, import: use.import });
    how.set(`${use.file}:${use.line}:${use.import}`, use.how);
  }
  return { reached: closure(direct, dependencies), how };
}

function facts(
  ecosystem: Analysed,
  dependencies: readonly ReachabilityDependency[],
  direct: Direct,
): ReachabilityFact[] {
  const reached = closure(direct.imported, dependencies);
  const mayLoad = computedReach(direct.computed ?? [], dependencies);
  const tooled = toolingReach(direct.tooling, dependencies);
  const hasEdges = dependencies.some((d) => d.parents.length > 0);
  const out = new Map<string, ReachabilityFact>();
  const unknown = (name: string, reason: string): ReachabilityFact => ({
    ecosystem,
    name,
    reachability: 'unknown',
    evidence: null,
    reason,
  });
  for (const { name, scope } of dependencies) {
    if (out.has(name)) continue;
    const hit = reached.get(name);
    const computed = mayLoad.get(name);
    const tool = tooled.reached.get(name);
    let fact: ReachabilityFact;
    if (hit) {
      const evidence = { ...hit.site, chain: chainTo(name, reached) };
      fact = { ecosystem, name, reachability: 'imported', evidence, reason: null };
    } else if (scope === 'self') {
      fact = unknown(name, "the project's own package: its code is the repository itself");
    } else if (computed) {
      const { file, line, import: what } = computed.site;
      fact = unknown(name, `the computed import at ${file}:${line} could load it (${what})`);
    } else if (direct.incomplete) {
      fact = unknown(name, direct.incomplete);
    } else if (tool) {
      const { file, line, import: written } = tool.site;
      const how = tooled.how.get(`${file}:${line}:${written}`) as string;
      const evidence = { ...tool.site, chain: chainTo(name, tooled.reached) };
      const reason = `not imported by code; used by tooling: ${how}`;
      fact = { ecosystem, name, reachability: 'used_by_tooling', evidence, reason };
    } else {
      fact = { ecosystem, name, ...notImported(ecosystem, direct, hasEdges) };
    }
    out.set(name, fact);
  }
  return [...out.values()];
}

function notImported(
  ecosystem: Analysed,
  direct: Direct,
  hasEdges: boolean,
): Pick<ReachabilityFact, 'reachability' | 'evidence' | 'reason'> {
  const unknown = (reason: string) => ({
    reachability: 'unknown' as const,
    evidence: null,
    reason,
  });
  if (direct.files === 0) return unknown(`no ${LANGUAGE_LABEL[ecosystem]} source files were read`);
  if (!hasEdges) {
    return unknown(
      'the dependency files record no edges: use through another package cannot be ruled out',
    );
  }
  const reason = `no ${LANGUAGE_LABEL[ecosystem]} file imports it or a package that depends on it, and no script or tool configuration names it`;
  return { reachability: 'not_imported', evidence: null, reason };
}

/** The reachability of every npm, PyPI and Go dependency of the tree at `root`. */
export async function analyseReachability(
  root: string,
  dependencies: readonly ReachabilityDependency[],
  limits: ReachabilityLimits = DEFAULT_REACHABILITY_LIMITS,
): Promise<ReachabilityFact[]> {
  const groups = new Map<Analysed, ReachabilityDependency[]>();
  for (const dependency of dependencies) {
    if (
      dependency.ecosystem !== 'npm' &&
      dependency.ecosystem !== 'PyPI' &&
      dependency.ecosystem !== 'Go'
    )
      continue;
    const list = groups.get(dependency.ecosystem) ?? [];
    list.push(dependency);
    groups.set(dependency.ecosystem, list);
  }
  if (groups.size === 0) return [];
  const sources = await listSourceFiles(root, limits);
  const out: ReachabilityFact[] = [];
  for (const [ecosystem, list] of groups) {
    const names = new Set(list.filter((d) => d.scope !== 'self').map((d) => d.name));
    const read = ecosystem === 'npm' ? npmDirect : ecosystem === 'PyPI' ? pythonDirect : goDirect;
    // npm is read even without source files: its scripts and tool configurations count.
    const direct =
      sources.files[LANGUAGE[ecosystem]].length === 0 && ecosystem !== 'npm'
        ? { imported: new Map(), incomplete: skippedReason(sources, LANGUAGE[ecosystem]), files: 0 }
        : await read(root, sources, names, limits);
    // One at a time: spreading 150,000 facts into push() overflows the stack.
    for (const fact of facts(ecosystem, list, direct)) out.push(fact);
  }
  return out;
}
