import { parseToml, type TomlTable } from '../shared/toml';
import { baseOf } from '../shared/tree-paths';
import type {
  DependencyScope,
  DependencySource,
  ExtractedDependency,
  ExtractInput,
  ExtractionError,
  ExtractionResult,
  Extractor,
} from '../types';
import {
  dedupe,
  groupScope,
  isTable,
  isValidName,
  makeDependency,
  normaliseName,
  stringOf,
} from './common';
import {
  archiveVersionFor,
  parseRequirement,
  referenceInfo,
  requirementEntry,
  type VersionInfo,
} from './pep508';
import { indexTomlLines, type TomlLineIndex } from './toml-lines';
import { isValid } from './versioning';

/**
 * pyproject.toml: PEP 621 `[project]` dependencies (runtime) and optional-dependencies
 * (optional), PEP 735 `[dependency-groups]` (scoped by group name, development otherwise),
 * `[build-system] requires` (build) and Poetry's `[tool.poetry.dependencies]` (python itself
 * excluded), `[tool.poetry.dev-dependencies]` and `[tool.poetry.group.<g>.dependencies]`.
 * Poetry constraints (`^1.2`, `~1.2`) are kept verbatim as declared text; a bare Poetry version
 * (`1.2.3`) is an exact pin.
 */

interface Collected {
  deps: ExtractedDependency[];
  errors: ExtractionError[];
}

function addRequirementStrings(
  out: Collected,
  values: unknown,
  scope: DependencyScope,
  lineOf: (text: string) => number | null,
  where: string,
): string[] {
  const names: string[] = [];
  if (!Array.isArray(values)) {
    if (values !== undefined) out.errors.push({ line: null, message: `${where} must be an array` });
    return names;
  }
  for (const value of values) {
    if (isTable(value) && 'include-group' in value) continue; // PEP 735: listed under its own group
    if (typeof value !== 'string') {
      out.errors.push({ line: null, message: `${where}: entries must be strings` });
      continue;
    }
    const line = lineOf(value);
    const parsed = parseRequirement(value);
    if (!parsed.ok) {
      out.errors.push({ line, message: `${where}: ${parsed.message}` });
      continue;
    }
    const { info, source } = requirementEntry(parsed.value);
    names.push(normaliseName(parsed.value.name));
    out.deps.push(
      makeDependency({
        name: parsed.value.name,
        version: info.version,
        resolution: info.resolution,
        scope,
        direct: true,
        line,
        source,
      }),
    );
  }
  return names;
}

/** A Poetry constraint string: `*` unpinned, bare `1.2.3` or `==1.2.3` exact, the rest as written. */
export function poetryConstraint(text: string): VersionInfo {
  const trimmed = text.trim();
  if (trimmed === '' || trimmed === '*') return { version: null, resolution: 'unpinned' };
  const exact = /^(?:===?)?\s*([^\s,|<>=!~^*]+)$/.exec(trimmed);
  if (exact && isValid(exact[1]!)) return { version: exact[1]!, resolution: 'resolved' };
  return { version: trimmed, resolution: 'declared' };
}

type PoetryEntry = { info: VersionInfo; source: DependencySource; optional: boolean };

function poetryEntries(name: string, value: unknown): PoetryEntry[] | string {
  if (typeof value === 'string') {
    return [{ info: poetryConstraint(value), source: { kind: 'registry' }, optional: false }];
  }
  if (Array.isArray(value)) {
    const all: PoetryEntry[] = [];
    for (const item of value) {
      const entries = poetryEntries(name, item);
      if (typeof entries === 'string') return entries;
      all.push(...entries);
    }
    return all;
  }
  if (!isTable(value)) return 'expected a constraint string or a table';
  const optional = value.optional === true;
  const unpinned: VersionInfo = { version: null, resolution: 'unpinned' };
  const git = stringOf(value.git);
  if (git) {
    const ref = stringOf(value.rev) ?? stringOf(value.tag) ?? stringOf(value.branch);
    return [
      { info: unpinned, source: { kind: 'git', url: git.replace(/^git\+/, ''), ref }, optional },
    ];
  }
  const path = stringOf(value.path);
  if (path !== null) return [{ info: unpinned, source: { kind: 'path', path }, optional }];
  const url = stringOf(value.url);
  if (url !== null) {
    const info = referenceInfo(url);
    const version = archiveVersionFor(name, info);
    return [
      {
        info: version ? { version, resolution: 'resolved' } : unpinned,
        source: info.source,
        optional,
      },
    ];
  }
  const version = value.version === undefined ? '*' : stringOf(value.version);
  if (version === null) return 'version must be a string';
  return [{ info: poetryConstraint(version), source: { kind: 'registry' }, optional }];
}

function addPoetryTable(
  out: Collected,
  table: unknown,
  tableName: string,
  scope: DependencyScope,
  lines: TomlLineIndex,
  skip: Set<string>,
): void {
  if (table === undefined) return;
  if (!isTable(table)) {
    out.errors.push({ line: null, message: `[${tableName}] must be a table` });
    return;
  }
  for (const [name, value] of Object.entries(table)) {
    if (name.toLowerCase() === 'python') continue; // the interpreter, not a package
    const line = lines.keyLine(tableName, name);
    if (!isValidName(name)) {
      out.errors.push({ line, message: `[${tableName}]: '${name}' is not a valid package name` });
      continue;
    }
    if (skip.has(normaliseName(name))) continue;
    const entries = poetryEntries(name, value);
    if (typeof entries === 'string') {
      out.errors.push({ line, message: `[${tableName}] ${name}: ${entries}` });
      continue;
    }
    for (const entry of entries) {
      out.deps.push(
        makeDependency({
          name,
          version: entry.info.version,
          resolution: entry.info.resolution,
          scope: scope === 'runtime' && entry.optional ? 'optional' : scope,
          direct: true,
          line,
          source: entry.source,
        }),
      );
    }
  }
}

function collect(doc: TomlTable, lines: TomlLineIndex): Collected {
  const out: Collected = { deps: [], errors: [] };
  const project = isTable(doc.project) ? doc.project : null;
  let projectRuntime: string[] = [];
  if (project) {
    projectRuntime = addRequirementStrings(
      out,
      project.dependencies,
      'runtime',
      (s) => lines.stringLine('project', 'dependencies', s),
      '[project] dependencies',
    );
    const optional = project['optional-dependencies'];
    if (isTable(optional)) {
      for (const [extra, values] of Object.entries(optional)) {
        addRequirementStrings(
          out,
          values,
          'optional',
          (s) =>
            lines.stringLine('project.optional-dependencies', extra, s) ??
            lines.stringLine('project', 'optional-dependencies', s),
          `[project.optional-dependencies] ${extra}`,
        );
      }
    }
  }
  const groups = doc['dependency-groups'];
  if (isTable(groups)) {
    for (const [group, values] of Object.entries(groups)) {
      addRequirementStrings(
        out,
        values,
        groupScope(group, 'development'),
        (s) => lines.stringLine('dependency-groups', group, s),
        `[dependency-groups] ${group}`,
      );
    }
  }
  const build = isTable(doc['build-system']) ? doc['build-system'] : null;
  if (build) {
    addRequirementStrings(
      out,
      build.requires,
      'build',
      (s) => lines.stringLine('build-system', 'requires', s),
      '[build-system] requires',
    );
  }
  const tool = isTable(doc.tool) ? doc.tool : null;
  const poetry = tool && isTable(tool.poetry) ? tool.poetry : null;
  if (poetry) {
    // Poetry 2 reads [project] first; its own table then only adds detail to those names.
    const skip = new Set(projectRuntime);
    addPoetryTable(out, poetry.dependencies, 'tool.poetry.dependencies', 'runtime', lines, skip);
    const none = new Set<string>();
    addPoetryTable(
      out,
      poetry['dev-dependencies'],
      'tool.poetry.dev-dependencies',
      'development',
      lines,
      none,
    );
    if (isTable(poetry.group)) {
      for (const [group, body] of Object.entries(poetry.group)) {
        if (!isTable(body)) continue;
        const tableName = `tool.poetry.group.${group}.dependencies`;
        addPoetryTable(
          out,
          body.dependencies,
          tableName,
          groupScope(group, 'development'),
          lines,
          none,
        );
      }
    }
  }
  return out;
}

export function extractPyproject(input: ExtractInput): ExtractionResult {
  const parsed = parseToml(input.text, 'pyproject.toml');
  if (!parsed.ok) return { dependencies: [], errors: [parsed.error] };
  const out = collect(parsed.value, indexTomlLines(input.text));
  return { dependencies: dedupe(out.deps), errors: out.errors };
}

/**
 * Normalised names a pyproject.toml asks for (any section but build-system), or null when it
 * cannot be parsed; lockfile extractors use it to tell direct from transitive entries.
 */
export function pyprojectDirectNames(text: string): Set<string> | null {
  const parsed = parseToml(text, 'pyproject.toml');
  if (!parsed.ok) return null;
  const out = collect(parsed.value, indexTomlLines(text, { strings: false }));
  return new Set(out.deps.filter((d) => d.scope !== 'build').map((d) => d.name));
}

export const pyprojectExtractor: Extractor = {
  name: 'pypi/pyproject',
  version: 1,
  kind: 'manifest',
  matches: (path) => baseOf(path) === 'pyproject.toml',
  extract: extractPyproject,
  describe: (input) => {
    const pep621 = /^[ \t]*\[project\]/m.test(input.text);
    const poetry = /^[ \t]*\[tool\.poetry[\].]/m.test(input.text);
    if (pep621 && poetry) return 'pyproject.toml (PEP 621 + Poetry)';
    if (poetry) return 'pyproject.toml (Poetry)';
    return pep621 ? 'pyproject.toml (PEP 621)' : 'pyproject.toml';
  },
};
