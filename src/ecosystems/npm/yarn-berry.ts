import type { DependencySource, ExtractInput, ExtractionError, ExtractionResult } from '../types';
import {
  gitSource,
  isGitSpec,
  isRecord,
  MANIFEST_SCOPES,
  manifestSelf,
  REGISTRY,
  readManifest,
  sourceFromResolved,
  splitDescriptor,
  stringEntries,
} from './common';
import { LockGraph } from './graph';
import { readYamlEntries } from './yaml-entries';

/**
 * Yarn Berry (v2+) yarn.lock: YAML whose keys list descriptors (`"a@npm:^1.0.0, a@npm:^1.1.0"`)
 * and whose entries carry `resolution: "a@npm:1.2.3"`. One dependency per entry except the root
 * workspace (`@workspace:.`, the project itself); workspace members are path sources, direct.
 * `patch:` entries are the patched registry package: same name and version, so they merge with
 * the unpatched entry. Direct = declared by a workspace entry; scope from reachability, with dev
 * roots taken from each workspace's package.json devDependencies when it can be read.
 */

const NO_SECTIONS: ReadonlySet<string> = new Set();

export function berryMetadataVersion(text: string): string | null {
  const match =
    /^__metadata:\r?\n(?:[ \t]+[^\s\r\n][^\r\n]*\r?\n)*?[ \t]+version:[ \t]*['"]?([\w.]+)/m.exec(
      text.slice(0, 4096),
    );
  return match ? (match[1] as string) : null;
}

/** Strips Berry's `::locator=...` / `::version=...` bindings from a reference. */
function withoutBindings(reference: string): string {
  const at = reference.indexOf('::');
  return at === -1 ? reference : reference.slice(0, at);
}

/** Where a resolution's reference (the part after `name@`) points. */
function referenceSource(reference: string, depth = 0): DependencySource {
  if (reference.startsWith('npm:')) return REGISTRY;
  if (reference.startsWith('patch:') && depth === 0) {
    // `patch:<name>@<url-encoded inner reference>#<patch file>`: the source is the inner one.
    const inner = patchedDescriptor(`x@${reference}`);
    const split = inner === null ? null : splitDescriptor(inner);
    return split ? referenceSource(split.range, depth + 1) : REGISTRY;
  }
  const plain = withoutBindings(reference);
  for (const protocol of ['workspace:', 'file:', 'link:', 'portal:', 'exec:']) {
    if (plain.startsWith(protocol)) return { kind: 'path', path: plain.slice(protocol.length) };
  }
  if (isGitSpec(plain)) return gitSource(plain);
  return sourceFromResolved(plain);
}

interface Entry {
  key: string;
  line: number | null;
  descriptors: string[];
  value: Record<string, unknown>;
}

function readEntries(input: ExtractInput, errors: ExtractionError[]): Entry[] {
  const { data, lines, mapping } = readYamlEntries(
    input.text,
    NO_SECTIONS,
    errors,
    'yarn lockfile',
  );
  if (!mapping) return [];
  const entries: Entry[] = [];
  for (const key of Object.keys(data)) {
    if (key === '__metadata') continue;
    const line = lines.get(key) ?? null;
    const value = data[key];
    if (!isRecord(value)) {
      errors.push({ line, message: `${key}: entry is not a mapping; skipped` });
      continue;
    }
    const descriptors = key
      .split(',')
      .map((d) => d.trim())
      .filter((d) => d !== '');
    entries.push({ key, line, descriptors, value });
  }
  return entries;
}

/** `a@patch:a@npm%3A^1.0.0#...` → `a@npm:^1.0.0`, the descriptor of the unpatched entry. */
function patchedDescriptor(descriptor: string): string | null {
  const split = splitDescriptor(descriptor);
  if (!split?.range.startsWith('patch:')) return null;
  const inner = split.range.slice('patch:'.length).split('#')[0] ?? '';
  try {
    return decodeURIComponent(inner);
  } catch {
    return null;
  }
}

/** A workspace's own version from its package.json (Yarn locks every workspace as `0.0.0-use.local`). */
function workspaceVersion(input: ExtractInput, workspace: string): string | null {
  return manifestSelf(readManifest(input, workspace || '.'), '.', null)?.version ?? null;
}

/** Workspace path of a `name@workspace:<path>` resolution, or null. */
function workspacePath(reference: string): string | null {
  return reference.startsWith('workspace:')
    ? withoutBindings(reference.slice('workspace:'.length))
    : null;
}

export function extractBerry(input: ExtractInput): ExtractionResult {
  const errors: ExtractionError[] = [];
  const entries = readEntries(input, errors);
  const graph = new LockGraph();
  const byDescriptor = new Map<string, number>();
  const nodes: { index: number; entry: Entry; workspace: string | null; name: string }[] = [];
  let rootIndex = -1;
  for (const entry of entries) {
    const resolution = entry.value.resolution;
    const split = typeof resolution === 'string' ? splitDescriptor(resolution) : null;
    if (!split) {
      errors.push({ line: entry.line, message: `${entry.key}: no valid "resolution"; skipped` });
      continue;
    }
    const workspace = workspacePath(split.range);
    const source = referenceSource(split.range);
    const declared = typeof entry.value.version === 'string' ? entry.value.version.trim() : '';
    // Yarn writes `0.0.0-use.local` for a workspace without a version of its own.
    const version =
      declared !== '' && declared !== '0.0.0-use.local'
        ? declared
        : source.kind === 'registry' && split.range.startsWith('npm:')
          ? split.range.slice('npm:'.length)
          : null;
    const index = graph.add({
      name: split.name,
      version: workspace === null ? version : (workspaceVersion(input, workspace) ?? version),
      line: entry.line,
      source: workspace === null ? source : { kind: 'path', path: workspace || '.' },
      workspace: workspace !== null,
      self: workspace !== null,
    });
    if (workspace === '.' || workspace === '') rootIndex = index;
    nodes.push({ index, entry, workspace, name: split.name });
    for (const descriptor of entry.descriptors) byDescriptor.set(descriptor, index);
  }

  for (const { index, entry, workspace, name } of nodes) {
    for (const descriptor of entry.descriptors) {
      const base = patchedDescriptor(descriptor);
      const to = base === null ? undefined : byDescriptor.get(base);
      if (to === undefined) continue;
      // User patches are referenced through the patch descriptor, Yarn's builtin compat patches
      // through the base one: link both ways so either way both get the same reachability.
      graph.builtFrom(index, to);
      graph.builtFrom(to, index);
    }
    const meta = isRecord(entry.value.dependenciesMeta) ? entry.value.dependenciesMeta : {};
    const deps = stringEntries(entry.value.dependencies);
    const optional = (dep: string) => {
      const m = meta[dep];
      return isRecord(m) && m.optional === true;
    };
    if (workspace === null) {
      for (const [dep, range] of deps) {
        const to = byDescriptor.get(`${dep}@${range}`);
        if (to !== undefined) graph.edge(index, to, optional(dep));
      }
      continue;
    }
    // A workspace: what it declares is direct. The lockfile merges dev and prod dependencies, so
    // the workspace's own package.json (when readable) says which were devDependencies.
    const manifest = readManifest(input, workspace);
    const scopeOf = new Map<string, 'runtime' | 'optional' | 'development'>();
    if (manifest) {
      for (const [field, scope] of MANIFEST_SCOPES) {
        for (const [dep] of stringEntries(manifest[field])) scopeOf.set(dep, scope);
      }
    }
    const projectName = index === rootIndex ? null : name;
    for (const [dep, range] of deps) {
      const to = byDescriptor.get(`${dep}@${range}`);
      if (to === undefined) continue;
      const scope = scopeOf.get(dep) ?? (optional(dep) ? 'optional' : 'runtime');
      graph.root(to, scope, projectName);
    }
  }
  return { dependencies: graph.toDependencies(), errors };
}
