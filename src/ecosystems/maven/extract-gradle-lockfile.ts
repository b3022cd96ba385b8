import { baseOf, dirOf, inDir } from '../shared/tree-paths';
import type {
  DependencyScope,
  ExtractedDependency,
  ExtractInput,
  ExtractionError,
  ExtractionResult,
  Extractor,
} from '../types';
import { dedupeDependencies, mavenDependency } from './common';
import { declaredModules } from './extract-gradle-script';

/**
 * Scope of one Gradle configuration. A `test` prefix or camelCase `Test` word (testRuntimeClasspath,
 * latestDepForkedTestCompileClasspath) is test; compile/runtime classpaths are what ships or what
 * the code is compiled against → runtime; annotation processors, linters and other tool
 * configurations (spotbugs, codenarc, custom ones) → build.
 */
export function gradleLockScope(configuration: string): DependencyScope {
  const lower = configuration.toLowerCase();
  // camelCase `Test` or a `test` prefix; not `latest...`.
  if (/(^test|Test)/.test(configuration)) return 'test';
  if (lower.endsWith('compileclasspath') || lower.endsWith('runtimeclasspath')) return 'runtime';
  return 'build';
}

const SCOPE_RANK: Record<DependencyScope, number> = {
  runtime: 0,
  optional: 1,
  development: 2,
  test: 3,
  build: 4,
  // Never produced by a Gradle configuration; listed for completeness.
  self: 5,
};

/** The most significant scope among a line's configurations (runtime beats test beats build). */
function strongestScope(configurations: string[], fallback: DependencyScope): DependencyScope {
  let best: DependencyScope | null = null;
  for (const configuration of configurations) {
    const scope = gradleLockScope(configuration);
    if (best === null || SCOPE_RANK[scope] < SCOPE_RANK[best]) best = scope;
  }
  return best ?? fallback;
}

/**
 * Modules declared in the sibling build script, used to mark lockfile entries direct: the
 * lockfile itself does not record directness. An entry is direct when its module is declared in
 * a configuration of the same scope (test classpaths also extend the main ones); without a
 * readable build script every entry is reported transitive.
 */
function declaredInScript(input: ExtractInput): Map<string, Set<DependencyScope>> {
  const dir = dirOf(input.path);
  for (const script of ['build.gradle.kts', 'build.gradle']) {
    const path = inDir(dir, script);
    const text = input.readFile(path);
    if (text !== null) return declaredModules({ path, text, readFile: input.readFile });
  }
  return new Map();
}

function isDirect(declared: Set<DependencyScope> | undefined, scope: DependencyScope): boolean {
  if (!declared) return false;
  return declared.has(scope) || (scope === 'test' && declared.has('runtime'));
}

const COORDINATE = /^([^\s:=]+):([^\s:=]+):([^\s:=]+)$/;

/**
 * gradle.lockfile (Gradle 6.8+): `group:artifact:version=conf1,conf2`, `empty=` lists the
 * configurations without dependencies. The legacy per-configuration files under
 * `gradle/dependency-locks/<configuration>.lockfile` carry bare `group:artifact:version` lines;
 * `settings-gradle.lockfile` / `buildscript-gradle.lockfile` lock build-logic classpaths.
 */
export function extractGradleLockfile(input: ExtractInput): ExtractionResult {
  const errors: ExtractionError[] = [];
  const dependencies: ExtractedDependency[] = [];
  const file = baseOf(input.path);
  const legacyConfiguration = input.path.includes('dependency-locks/')
    ? file.replace(/\.lockfile$/, '')
    : null;
  const buildLogic = file === 'settings-gradle.lockfile' || file === 'buildscript-gradle.lockfile';
  const declared = buildLogic ? new Map<string, Set<DependencyScope>>() : declaredInScript(input);
  const lines = input.text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line.length === 0 || line.startsWith('#')) continue;
    const equals = line.indexOf('=');
    const coordinate = equals === -1 ? line : line.slice(0, equals);
    if (coordinate === 'empty') continue;
    const match = COORDINATE.exec(coordinate);
    if (!match) {
      errors.push({
        line: i + 1,
        message: `not a group:artifact:version entry: ${line.slice(0, 120)}`,
      });
      continue;
    }
    const configurations =
      equals === -1
        ? legacyConfiguration
          ? [legacyConfiguration]
          : []
        : line
            .slice(equals + 1)
            .split(',')
            .map((c) => c.trim())
            .filter((c) => c.length > 0);
    const [, group, artifact, version] = match as unknown as [string, string, string, string];
    const scope = buildLogic ? 'build' : strongestScope(configurations, 'runtime');
    dependencies.push(
      mavenDependency({
        group,
        artifact,
        version,
        scope,
        direct: isDirect(declared.get(`${group}:${artifact}`), scope),
        line: i + 1,
        resolution: 'resolved',
      }),
    );
  }
  return { dependencies: dedupeDependencies(dependencies), errors };
}

export const gradleLockfileExtractor: Extractor = {
  name: 'maven/gradle-lockfile',
  version: 1,
  kind: 'lockfile',
  matches: (path) => {
    const file = baseOf(path);
    if (file === 'gradle.lockfile' || file === 'settings-gradle.lockfile') return true;
    if (file === 'buildscript-gradle.lockfile') return true;
    return file.endsWith('.lockfile') && path.includes('gradle/dependency-locks/');
  },
  extract: extractGradleLockfile,
  describe: (input) =>
    input.path.includes('dependency-locks/')
      ? 'Gradle dependency-locks (legacy)'
      : 'gradle.lockfile',
};
