import { isObject } from '../../core/json-values';
import type { DependencyFields } from '../dependency-list';
import { buildPurl } from '../purl';
import { dirOf as dirnameOf, joinInTree } from '../shared/tree-paths';
import type {
  DependencySource,
  ExtractedDependency,
  ExtractInput,
  ExtractionError,
  Resolution,
} from '../types';
import { npmVersioning, parseNpmVersion } from './versioning';

/** npm names are lower-case by registry rule but kept as published; only whitespace is trimmed. */
export function normaliseNpmName(name: string): string {
  return name.trim();
}

export const REGISTRY: DependencySource = { kind: 'registry' };

/**
 * Builds one dependency. The purl carries the version only when resolved; git and URL sources get
 * the purl-spec `vcs_url` / `download_url` qualifier so they never share an identity with the
 * registry package of the same name.
 */
export function makeDependency(fields: DependencyFields): ExtractedDependency {
  const name = normaliseNpmName(fields.name);
  const version = fields.version === null ? null : fields.version.trim();
  const source = fields.source ?? REGISTRY;
  let qualifiers: Record<string, string> | undefined;
  if (source.kind === 'git') qualifiers = { vcs_url: source.url };
  else if (source.kind === 'url') qualifiers = { download_url: source.url };
  const parents = fields.parents ? [...new Set(fields.parents)] : [];
  if (parents.length > 1) parents.sort();
  return {
    name,
    version,
    purl: buildPurl('npm', name, fields.resolution === 'resolved' ? version : null, qualifiers),
    scope: fields.scope,
    direct: fields.direct,
    resolution: fields.resolution,
    line: fields.line,
    parents,
    source,
  };
}

export { dedupe } from '../dependency-list';

/**
 * `target[key] = value` as an own data property, even for `__proto__` (plain assignment would
 * replace the object's prototype instead of adding the key).
 */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, {
    value,
    writable: true,
    enumerable: true,
    configurable: true,
  });
}

export { isObject as isRecord };

/** The string-valued entries of a dependency map (`{ name: range }`), ignoring anything else. */
export function stringEntries(value: unknown): [string, string][] {
  if (!isObject(value)) return [];
  const out: [string, string][] = [];
  for (const key of Object.keys(value)) {
    const v = value[key];
    if (typeof v === 'string') out.push([key, v]);
  }
  return out;
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function fileError(message: string): ExtractionError {
  return { line: null, message };
}

export { dirOf as dirnameOf } from '../shared/tree-paths';

/** Splits `name@range` (the name may be scoped: `@scope/name@range`). */
export function splitDescriptor(descriptor: string): { name: string; range: string } | null {
  const at = descriptor.indexOf('@', 1);
  if (at <= 0) return null;
  return { name: descriptor.slice(0, at), range: descriptor.slice(at + 1) };
}

const GIT_HOST_PREFIXES = ['github:', 'gitlab:', 'bitbucket:', 'gist:'];

/** True for the git spellings npm accepts (`git+https:`, `git://`, `github:u/r`, `u/r`, ...). */
export function isGitSpec(spec: string): boolean {
  if (spec.startsWith('git+') || spec.startsWith('git://')) return true;
  if (GIT_HOST_PREFIXES.some((prefix) => spec.startsWith(prefix))) return true;
  if (/^https?:\/\/[^#]*\.git(#.*)?$/.test(spec)) return true;
  // GitHub shorthand `user/repo[#ref]`: no scheme, no leading `.`, `@` or `/`.
  return /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+(#.*)?$/.test(spec) && !spec.startsWith('.');
}

const HOSTS: Record<string, string> = {
  github: 'github.com',
  gitlab: 'gitlab.com',
  bitbucket: 'bitbucket.org',
  gist: 'gist.github.com',
};

/** `github:u/r`, `u/r` (GitHub) and friends → the clone URL npm would use. */
function expandHosted(url: string): string {
  const colon = url.indexOf(':');
  const prefix = colon === -1 ? '' : url.slice(0, colon);
  const host = HOSTS[prefix];
  if (host) return `git+https://${host}/${url.slice(colon + 1)}.git`;
  if (colon === -1 && /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/.test(url)) {
    return `git+https://github.com/${url}.git`;
  }
  return url;
}

export function gitSource(spec: string): DependencySource {
  const hash = spec.indexOf('#');
  const url = expandHosted(hash === -1 ? spec : spec.slice(0, hash));
  let ref = hash === -1 ? null : spec.slice(hash + 1);
  // Yarn Berry writes `#commit=<sha>`; npm writes `#<sha>` or `#semver:<range>`.
  if (ref?.startsWith('commit=')) ref = ref.slice('commit='.length);
  return { kind: 'git', url, ref: ref === '' ? null : ref };
}

/**
 * Where a lockfile's `resolved` URL points. Registry tarballs follow `<registry>/<name>/-/<file>`
 * on every npm-compatible registry; any other http(s) URL is a plain tarball download.
 */
export function sourceFromResolved(resolved: unknown): DependencySource {
  if (typeof resolved !== 'string' || resolved === '') return REGISTRY;
  // The common case first, cheaply: a registry tarball.
  if (resolved.startsWith('https://') && resolved.includes('/-/')) return REGISTRY;
  if (isGitSpec(resolved)) return gitSource(resolved);
  if (resolved.startsWith('file:')) return { kind: 'path', path: resolved.slice('file:'.length) };
  if (/^https?:\/\//.test(resolved)) {
    return resolved.includes('/-/') ? REGISTRY : { kind: 'url', url: resolved };
  }
  return REGISTRY;
}

export interface SpecClassification {
  /** The real package name (an `npm:` alias names another package). */
  name: string;
  version: string | null;
  resolution: Resolution;
  source: DependencySource;
}

/** Dist-tags (`latest`, `next`, `beta`) are unpinned: they move. */
const DIST_TAG = /^[A-Za-z][A-Za-z0-9._-]*$/;

/**
 * A manifest spec the way npm-package-arg reads it: registry version, range or tag; `npm:` alias;
 * git; tarball URL; local path (`file:`, `link:`, `workspace:`, `./dir`).
 */
export function classifySpec(name: string, rawSpec: string, depth = 0): SpecClassification {
  const spec = rawSpec.trim();
  if (spec.startsWith('npm:') && depth === 0) {
    const target = spec.slice('npm:'.length);
    const split = splitDescriptor(target);
    if (split) return classifySpec(split.name, split.range, 1);
    return classifySpec(target, '', 1);
  }
  if (spec.startsWith('workspace:')) {
    // `workspace:^` names no folder: the spec itself says where it comes from.
    return { name, version: null, resolution: 'unpinned', source: { kind: 'path', path: spec } };
  }
  for (const protocol of ['link:', 'portal:']) {
    if (spec.startsWith(protocol)) {
      const path = spec.slice(protocol.length);
      return { name, version: null, resolution: 'unpinned', source: { kind: 'path', path } };
    }
  }
  if (spec.startsWith('file:')) {
    const path = spec.slice('file:'.length);
    return { name, version: null, resolution: 'unpinned', source: { kind: 'path', path } };
  }
  if (/^(\.{1,2}\/|\/|~\/)/.test(spec)) {
    return { name, version: null, resolution: 'unpinned', source: { kind: 'path', path: spec } };
  }
  if (isGitSpec(spec)) {
    return { name, version: null, resolution: 'unpinned', source: gitSource(spec) };
  }
  if (/^https?:\/\//.test(spec)) {
    return { name, version: null, resolution: 'unpinned', source: { kind: 'url', url: spec } };
  }
  if (spec === '' || spec === '*' || spec === 'x' || spec === 'X') {
    return { name, version: null, resolution: 'unpinned', source: REGISTRY };
  }
  const exact = parseNpmVersion(spec.replace(/^=\s*/, ''));
  if (exact) return { name, version: exact.version, resolution: 'resolved', source: REGISTRY };
  if (npmVersioning.isRange(spec) || !DIST_TAG.test(spec)) {
    return { name, version: spec, resolution: 'declared', source: REGISTRY };
  }
  return { name, version: null, resolution: 'unpinned', source: REGISTRY };
}

/** The package.json beside the scanned file (or in `relative` folders under it), parsed. */
export function readManifest(
  input: Pick<ExtractInput, 'path' | 'readFile'>,
  ...relative: string[]
): Record<string, unknown> | null {
  const path = joinInTree(dirnameOf(input.path), [...relative, 'package.json'].join('/'));
  if (path === null) return null;
  const text = input.readFile(path);
  if (text === null) return null;
  try {
    const parsed: unknown = JSON.parse(text);
    return isObject(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

export const MANIFEST_SCOPES = [
  ['dependencies', 'runtime'],
  ['optionalDependencies', 'optional'],
  ['devDependencies', 'development'],
] as const;

/**
 * The project's own package (scope `self`) named by a package.json: its `name`, and its `version`
 * when that is an exact version (resolved), else unpinned. Null when the manifest has no name (an
 * unnamed private root has nothing to report). `path` is the project's folder relative to the
 * lockfile's directory (`.` for the root). docs/extraction.md "The project's own package".
 */
export function manifestSelf(
  manifest: Record<string, unknown> | null,
  path: string,
  line: number | null,
): ExtractedDependency | null {
  if (!manifest || typeof manifest.name !== 'string' || manifest.name.trim() === '') return null;
  const version =
    typeof manifest.version === 'string' && parseNpmVersion(manifest.version.trim())
      ? manifest.version.trim()
      : null;
  return makeDependency({
    name: manifest.name,
    version,
    resolution: version === null ? 'unpinned' : 'resolved',
    scope: 'self',
    direct: false,
    line,
    source: { kind: 'path', path },
  });
}
