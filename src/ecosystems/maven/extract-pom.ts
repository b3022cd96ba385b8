import { baseOf, dirOf, inDir, joinInTree } from '../shared/tree-paths';
import type {
  DependencyScope,
  ExtractedDependency,
  ExtractInput,
  ExtractionError,
  ExtractionResult,
  Extractor,
} from '../types';
import { dedupeDependencies, mavenDependency } from './common';
import { type PomDependency, type PomModel, parsePom } from './pom-model';
import { parseMavenRange } from './versioning';

/** Parent chains deeper than this are cut (real projects rarely go past 4). */
const MAX_PARENTS = 10;
/** Property references nested deeper than this are left unresolved (guards `a=${b}`, `b=${a}`). */
const MAX_INTERPOLATION_DEPTH = 10;

interface ChainLink {
  path: string;
  model: PomModel;
}

/**
 * Follows `<parent>` through `<relativePath>` (default `../pom.xml`) inside the tree. A parent
 * that is absent from the tree, or whose coordinates do not match, is what Maven would fetch from
 * a repository: that is normal and not an error (its managed versions stay unknown). Cycles and
 * unparseable in-tree parents are reported as informational errors.
 */
function loadParents(input: ExtractInput, self: PomModel, errors: ExtractionError[]): ChainLink[] {
  const chain: ChainLink[] = [{ path: input.path, model: self }];
  const visited = new Set([input.path]);
  let current = chain[0]!;
  while (current.model.parent && chain.length <= MAX_PARENTS) {
    const parent = current.model.parent;
    if (parent.relativePath === '') break;
    let target = joinInTree(dirOf(current.path), parent.relativePath ?? '../pom.xml');
    if (target === null) break;
    if (!target.endsWith('.xml')) target = inDir(target, 'pom.xml');
    if (visited.has(target)) {
      errors.push({ line: null, message: `parent POM cycle through ${target}; chain cut there` });
      break;
    }
    const text = input.readFile(target);
    if (text === null) break;
    const parsed = parsePom(text);
    if (!parsed.model) {
      errors.push({
        line: null,
        message: `parent POM ${target} could not be parsed; its properties and dependencyManagement are not applied`,
      });
      break;
    }
    const groupId = parsed.model.groupId ?? parsed.model.parent?.groupId ?? null;
    if (groupId !== parent.groupId || parsed.model.artifactId !== parent.artifactId) break;
    visited.add(target);
    current = { path: target, model: parsed.model };
    chain.push(current);
  }
  return chain;
}

/** Merged properties (children override parents) plus the `project.*` model values. */
function buildProperties(chain: ChainLink[]): Map<string, string> {
  const properties = new Map<string, string>();
  for (let i = chain.length - 1; i >= 0; i--) {
    for (const [key, value] of chain[i]!.model.properties) properties.set(key, value);
  }
  const self = chain[0]!.model;
  const builtIns: Record<string, string | null | undefined> = {
    groupId: self.groupId ?? self.parent?.groupId,
    artifactId: self.artifactId,
    version: self.version ?? self.parent?.version,
    'parent.groupId': self.parent?.groupId,
    'parent.artifactId': self.parent?.artifactId,
    'parent.version': self.parent?.version,
  };
  for (const [key, value] of Object.entries(builtIns)) {
    if (value === null || value === undefined) continue;
    // `pom.*` is the deprecated Maven 2 spelling of `project.*`.
    properties.set(`project.${key}`, value);
    properties.set(`pom.${key}`, value);
  }
  return properties;
}

function makeInterpolator(properties: Map<string, string>): (text: string) => string {
  const cache = new Map<string, string>();
  const expand = (text: string, depth: number): string => {
    if (!text.includes('${')) return text;
    return text.replace(/\$\{([^${}]+)\}/g, (whole, name: string) => {
      const cached = cache.get(name);
      if (cached !== undefined) return cached;
      const raw = properties.get(name);
      if (raw === undefined || depth >= MAX_INTERPOLATION_DEPTH) return whole;
      const value = expand(raw, depth + 1);
      if (!value.includes('${')) cache.set(name, value);
      return value;
    });
  };
  return (text) => expand(text, 0);
}

/** Maven's management key: groupId:artifactId:type:classifier. */
function managementKey(
  group: string,
  artifact: string,
  type: string | null,
  classifier: string | null,
) {
  return `${group}:${artifact}:${type ?? 'jar'}:${classifier ?? ''}`;
}

/**
 * compile/runtime ship with the artifact → runtime; test → test; provided/system are supplied by
 * the container or JDK and never packaged → build; optional=true → optional (unless test).
 */
function mapScope(scope: string, optional: boolean): DependencyScope {
  if (scope === 'test') return 'test';
  if (scope === 'provided' || scope === 'system' || scope === 'import') return 'build';
  return optional ? 'optional' : 'runtime';
}

/** `[1.5]` is Maven's hard requirement for exactly one version. */
function exactVersion(version: string): string {
  if (!version.startsWith('[')) return version;
  const range = parseMavenRange(version);
  const only = range?.length === 1 ? range[0] : undefined;
  if (only?.lower && only.lower === only.upper) return only.lower;
  return version;
}

export function extractPom(input: ExtractInput): ExtractionResult {
  const parsed = parsePom(input.text);
  const errors: ExtractionError[] = [...parsed.errors];
  if (!parsed.model) return { dependencies: [], errors };
  const chain = loadParents(input, parsed.model, errors);
  const interpolate = makeInterpolator(buildProperties(chain));
  const value = (text: string | null) => (text === null ? null : interpolate(text));

  const managed = new Map<string, PomDependency>();
  for (let i = chain.length - 1; i >= 0; i--) {
    for (const entry of chain[i]!.model.dependencyManagement) {
      const group = value(entry.groupId);
      const artifact = value(entry.artifactId);
      if (group === null || artifact === null) continue;
      managed.set(
        managementKey(group, artifact, value(entry.type), value(entry.classifier)),
        entry,
      );
    }
  }

  const dependencies: ExtractedDependency[] = [];
  const coordinates = (entry: PomDependency): [string, string] | null => {
    const group = value(entry.groupId);
    const artifact = value(entry.artifactId);
    if (group === null || artifact === null) {
      errors.push({
        line: entry.line,
        message: 'dependency without groupId or artifactId skipped',
      });
      return null;
    }
    if (group.includes('${') || artifact.includes('${')) {
      errors.push({
        line: entry.line,
        message: `dependency ${group}:${artifact} skipped: unresolved property in its coordinates`,
      });
      return null;
    }
    return [group, artifact];
  };

  for (const entry of parsed.model.dependencies) {
    const coords = coordinates(entry);
    if (!coords) continue;
    const [group, artifact] = coords;
    const type = value(entry.type);
    const fromManagement = managed.get(
      managementKey(group, artifact, type, value(entry.classifier)),
    );
    const version = value(entry.version ?? fromManagement?.version ?? null);
    const scope = value(entry.scope ?? fromManagement?.scope ?? null) ?? 'compile';
    const optional = value(entry.optional ?? fromManagement?.optional ?? null) === 'true';
    dependencies.push(
      mavenDependency({
        group,
        artifact,
        version: version === null ? null : exactVersion(version),
        scope: mapScope(scope, optional),
        direct: true,
        line: entry.line,
      }),
    );
  }

  // Imported BOMs are real downloads that pin versions for the build: reported, scope build.
  for (const entry of parsed.model.dependencyManagement) {
    if (value(entry.scope) !== 'import' || (value(entry.type) ?? 'jar') !== 'pom') continue;
    const coords = coordinates(entry);
    if (!coords) continue;
    const version = value(entry.version);
    dependencies.push(
      mavenDependency({
        group: coords[0],
        artifact: coords[1],
        version: version === null ? null : exactVersion(version),
        scope: 'build',
        direct: true,
        line: entry.line,
      }),
    );
  }
  const self = selfComponent(parsed.model, value);
  if (self) dependencies.unshift(self);
  return { dependencies: dedupeDependencies(dependencies), errors };
}

/**
 * The pom's own coordinates (groupId and version inherited from the parent when absent): the
 * project itself, scope `self`. A version left as an unresolved property (`${revision}`, set on
 * the command line) is unknown, so unpinned; coordinates that stay unresolved are not reported.
 */
function selfComponent(
  model: PomModel,
  value: (text: string | null) => string | null,
): ExtractedDependency | null {
  const group = value(model.groupId ?? model.parent?.groupId ?? null);
  const artifact = value(model.artifactId);
  if (!group || !artifact || group.includes('${') || artifact.includes('${')) return null;
  const version = value(model.version ?? model.parent?.version ?? null);
  const known = version !== null && !version.includes('${') ? version : null;
  return {
    ...mavenDependency({
      group,
      artifact,
      version: known,
      scope: 'self',
      direct: false,
      line: model.line,
      resolution: known === null ? 'unpinned' : 'resolved',
    }),
    source: { kind: 'path', path: '.' },
  };
}

export const pomExtractor: Extractor = {
  name: 'maven/pom',
  version: 2,
  kind: 'manifest',
  matches: (path) => baseOf(path) === 'pom.xml',
  extract: extractPom,
  describe: () => 'Maven pom.xml',
};
