import { lineAt, lineStarts } from '../shared/text-lines';
import { ancestorDirs, baseOf, dirOf, inDir } from '../shared/tree-paths';
import type {
  DependencyScope,
  ExtractedDependency,
  ExtractInput,
  ExtractionError,
  ExtractionResult,
  Extractor,
} from '../types';
import { dedupeDependencies, mavenDependency } from './common';
import {
  catalogAccessor,
  parseVersionCatalog,
  type VersionCatalog,
} from './extract-gradle-catalog';
import { lexScript, matchBracket, stringLiteral } from './gradle-lexer';

/** Scripts beyond this size are refused rather than scanned (real ones are a few kB). */
const MAX_SCRIPT_BYTES = 5 * 1024 * 1024;
/** Nested `if`/`each` blocks inside `dependencies { }` are followed this deep. */
const MAX_BLOCK_DEPTH = 20;

/** Statements that are not configurations even though they look like calls. */
const NOT_CONFIGURATIONS = new Set([
  'def',
  'val',
  'var',
  'final',
  'return',
  'println',
  'exclude',
  'force',
  'because',
  'apply',
  'ext',
  'extra',
]);
/** Blocks whose contents are not dependency declarations of the project. */
const SKIPPED_BLOCKS = new Set(['constraints', 'components', 'modules', 'attributesSchema']);
/** `if (...) { ... }`, `list.each { ... }`: look inside; any other trailing closure configures. */
const CONTROL = new Set(['if', 'else', 'for', 'while', 'each', 'forEach', 'with', 'run', 'also']);

/**
 * Scope of a declaring configuration: test* → test, developmentOnly → development, annotation
 * processors, compile-only (never packaged) and buildscript `classpath` → build; implementation,
 * api, runtimeOnly and their variant-prefixed forms → runtime; unknown custom ones → build.
 */
export function gradleConfigurationScope(configuration: string): DependencyScope {
  const lower = configuration.toLowerCase();
  // camelCase `Test` or a `test` prefix; not `latest...`.
  if (/(^test|Test)/.test(configuration)) return 'test';
  if (lower === 'developmentonly') return 'development';
  if (
    lower.includes('annotationprocessor') ||
    lower.startsWith('kapt') ||
    lower.startsWith('ksp')
  ) {
    return 'build';
  }
  if (lower.endsWith('compileonly') || lower.endsWith('compileonlyapi') || lower === 'classpath') {
    return 'build';
  }
  if (/(implementation|api|runtimeonly|^compile|^runtime)$/.test(lower)) return 'runtime';
  return 'build';
}

interface Context {
  input: ExtractInput;
  code: string;
  skeleton: string;
  starts: number[];
  dependencies: ExtractedDependency[];
  catalog: VersionCatalog | null | undefined;
}

interface Declared {
  group: string;
  artifact: string;
  version: string | null;
}

/** The nearest `gradle/libs.versions.toml` walking up from the script; loaded on first use. */
function catalogOf(ctx: Context): VersionCatalog | null {
  if (ctx.catalog !== undefined) return ctx.catalog;
  ctx.catalog = null;
  for (const dir of ancestorDirs(dirOf(ctx.input.path))) {
    const text = ctx.input.readFile(inDir(dir, 'gradle/libs.versions.toml'));
    if (text === null) continue;
    ctx.catalog = parseVersionCatalog(text).catalog;
    break;
  }
  return ctx.catalog;
}

/** `g:a`, `g:a:v`, `g:a:v:classifier`, each optionally `@ext`; `v!!` means strictly v. */
function parseCoordinate(text: string): Declared | null {
  const at = text.lastIndexOf('@');
  const parts = (at === -1 ? text : text.slice(0, at)).split(':');
  if (parts.length < 2 || parts.length > 4) return null;
  const [group, artifact, version] = parts.map((p) => p.trim());
  if (!group || !artifact || !/^[\w.-]+$/.test(group) || !/^[\w.-]+$/.test(artifact)) return null;
  let v = version && version.length > 0 ? version : null;
  if (v?.endsWith('!!')) v = v.slice(0, -2);
  return { group, artifact, version: v };
}

function trimRange(skeleton: string, start: number, end: number): [number, number] {
  let s = start;
  let e = end;
  while (s < e && /\s/.test(skeleton[s]!)) s++;
  while (e > s && /\s/.test(skeleton[e - 1]!)) e--;
  return [s, e];
}

/** Top-level comma-separated items of an argument list, as trimmed [start, end) ranges. */
function splitArgs(skeleton: string, start: number, end: number): [number, number][] {
  const items: [number, number][] = [];
  let depth = 0;
  let itemStart = start;
  for (let i = start; i < end; i++) {
    const c = skeleton[i];
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth--;
    else if (c === ',' && depth === 0) {
      items.push(trimRange(skeleton, itemStart, i));
      itemStart = i + 1;
    }
  }
  items.push(trimRange(skeleton, itemStart, end));
  return items.filter(([s, e]) => e > s);
}

/** A catalog accessor such as `libs.okhttp`, `libs.bundles.junit5`, `libs.foo.get()`. */
function catalogPath(text: string): string | null {
  const match = /^libs((?:\.[A-Za-z_]\w*)+)$/.exec(text.replace(/\.(get|asProvider)\(\)$/, ''));
  return match ? catalogAccessor(match[1]!.slice(1)) : null;
}

/** A version value in map notation: a literal, a catalog version, or an expression kept as text. */
function mapVersion(ctx: Context, start: number, end: number): string | null {
  const literal = stringLiteral(ctx.code, ctx.skeleton, start, end);
  if (literal !== null) return literal.endsWith('!!') ? literal.slice(0, -2) : literal;
  const text = ctx.code.slice(start, end).trim();
  const path = catalogPath(text);
  if (path?.startsWith('versions.')) {
    const version = catalogOf(ctx)?.versions.get(path.slice('versions.'.length));
    if (version) return version;
  }
  // An unresolvable variable stays visible as declared text, never as a fake exact version.
  return `\${${text.length > 100 ? `${text.slice(0, 100)}…` : text}}`;
}

function mapNotation(ctx: Context, items: [number, number][]): Declared | null {
  const values = new Map<string, [number, number]>();
  for (const [start, end] of items) {
    const key = /^(\w+)\s*[:=]\s*/.exec(ctx.skeleton.slice(start, end));
    if (key) values.set(key[1]!, [start + key[0].length, end]);
  }
  const text = (key: string) => {
    const range = values.get(key);
    return range ? stringLiteral(ctx.code, ctx.skeleton, range[0], range[1]) : null;
  };
  const group = text('group');
  const artifact = text('name');
  if (!group || !artifact || group.includes('$') || artifact.includes('$')) return null;
  const versionRange = values.get('version');
  const version = versionRange ? mapVersion(ctx, versionRange[0], versionRange[1]) : null;
  return { group, artifact, version };
}

function emit(ctx: Context, declared: Declared, scope: DependencyScope, line: number): void {
  ctx.dependencies.push(
    mavenDependency({
      group: declared.group,
      artifact: declared.artifact,
      version: declared.version,
      scope,
      direct: true,
      line,
    }),
  );
}

/** One argument of a configuration call: a literal, a catalog accessor or a wrapper call. */
function handleItem(
  ctx: Context,
  start: number,
  end: number,
  scope: DependencyScope,
  line: number,
  depth: number,
): void {
  const literal = stringLiteral(ctx.code, ctx.skeleton, start, end);
  if (literal !== null) {
    const declared = parseCoordinate(literal);
    if (declared) emit(ctx, declared, scope, line);
    return;
  }
  const text = ctx.code.slice(start, end).trim();
  const call = /^([A-Za-z_]\w*)\s*\(/.exec(ctx.skeleton.slice(start, end));
  if (call && depth < 3) {
    const open = start + call[0].length - 1;
    const close = matchBracket(ctx.skeleton, open, end);
    if (close === -1) return;
    const fn = call[1]!;
    if (fn === 'platform' || fn === 'enforcedPlatform') {
      // BOM imports are noted like Maven's `import` scope: a build-time version source.
      handleArgs(ctx, open + 1, close, 'build', line, depth + 1);
    } else if (fn === 'testFixtures') {
      handleArgs(ctx, open + 1, close, scope, line, depth + 1);
    } else if (fn === 'kotlin') {
      const items = splitArgs(ctx.skeleton, open + 1, close);
      const values = items.map(([s, e]) => stringLiteral(ctx.code, ctx.skeleton, s, e));
      if (values[0]) {
        const version = items[1] ? mapVersion(ctx, items[1][0], items[1][1]) : null;
        emit(
          ctx,
          { group: 'org.jetbrains.kotlin', artifact: `kotlin-${values[0]}`, version },
          scope,
          line,
        );
      }
    }
    // project(...), files(...), fileTree(...), gradleApi(): not registry dependencies.
    return;
  }
  const path = catalogPath(text);
  if (!path || path.startsWith('plugins.') || path.startsWith('versions.')) return;
  const catalog = catalogOf(ctx);
  if (!catalog) return; // no catalog in the tree: skipped quietly
  const aliases = path.startsWith('bundles.')
    ? (catalog.bundles.get(path.slice('bundles.'.length)) ?? [])
    : [path];
  for (const alias of aliases) {
    const library = catalog.libraries.get(alias);
    if (library) emit(ctx, library, scope, line);
  }
}

function handleArgs(
  ctx: Context,
  start: number,
  end: number,
  scope: DependencyScope,
  line: number,
  depth: number,
): void {
  const items = splitArgs(ctx.skeleton, start, end);
  if (items.some(([s, e]) => /^(group|name)\s*[:=]/.test(ctx.skeleton.slice(s, e)))) {
    const declared = mapNotation(ctx, items);
    if (declared) emit(ctx, declared, scope, line);
    return;
  }
  for (const [s, e] of items) handleItem(ctx, s, e, scope, line, depth);
}

/** End of a statement in Groovy command syntax: the newline at depth 0 not after a comma. */
function statementEnd(skeleton: string, pos: number, limit: number): number {
  let depth = 0;
  let lastSignificant = '';
  for (let i = pos; i < limit; i++) {
    const c = skeleton[i]!;
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') {
      if (depth === 0) return i;
      depth--;
    } else if (depth === 0 && (c === ';' || (c === '\n' && lastSignificant !== ','))) {
      return i;
    }
    if (!/\s/.test(c)) lastSignificant = c;
  }
  return limit;
}

const IDENTIFIER = /[A-Za-z_$][\w$]*(?:\s*\.\s*[A-Za-z_$][\w$]*)*/y;

/** Walks the statements of one `dependencies { ... }` body (`start`..`end` exclusive). */
function walkBlock(ctx: Context, start: number, end: number, depth: number): void {
  const { skeleton } = ctx;
  let pos = start;
  while (pos < end) {
    while (pos < end && /[\s;,]/.test(skeleton[pos]!)) pos++;
    if (pos >= end) break;
    const statementStart = pos;
    let name: string | null = null;
    IDENTIFIER.lastIndex = pos;
    const identifier = IDENTIFIER.exec(skeleton);
    if (identifier && identifier.index === pos) {
      name = identifier[0].replace(/\s+/g, '');
      pos += identifier[0].length;
    } else if (skeleton[pos] === '"' || skeleton[pos] === "'") {
      // Kotlin DSL: "customConfiguration"("g:a:v")
      const close = skeleton.indexOf(skeleton[pos]!, pos + 1);
      if (close !== -1 && close < end) {
        name = stringLiteral(ctx.code, skeleton, pos, close + 1);
        pos = close + 1;
      }
    }
    if (name === null) {
      pos = Math.max(statementEnd(skeleton, pos, end), pos + 1);
      continue;
    }
    while (pos < end && (skeleton[pos] === ' ' || skeleton[pos] === '\t')) pos++;
    // `else if (...)` is read as the `if` statement that follows; `else { }` as a control block.
    if (name === 'else' && skeleton[pos] !== '{') continue;
    const line = lineAt(ctx.starts, statementStart);
    const lastSegment = name.slice(name.lastIndexOf('.') + 1);
    let argsStart = -1;
    let argsEnd = -1;
    if (skeleton[pos] === '(') {
      const close = matchBracket(skeleton, pos, end);
      if (close === -1) break;
      argsStart = pos + 1;
      argsEnd = close;
      pos = close + 1;
      while (pos < end && (skeleton[pos] === ' ' || skeleton[pos] === '\t')) pos++;
    }
    if (skeleton[pos] === '{') {
      const close = matchBracket(skeleton, pos, end);
      if (close === -1) break;
      const body = CONTROL.has(lastSegment) || (argsStart === -1 && !SKIPPED_BLOCKS.has(name));
      if (body && depth < MAX_BLOCK_DEPTH) walkBlock(ctx, pos + 1, close, depth + 1);
      pos = close + 1;
    } else if (argsStart === -1) {
      if (skeleton[pos] === '=' || /[^\s'"\w$[(]/.test(skeleton[pos] ?? '')) {
        pos = Math.max(statementEnd(skeleton, pos, end), pos + 1);
        continue;
      }
      argsStart = pos;
      argsEnd = statementEnd(skeleton, pos, end);
      pos = Math.max(argsEnd, pos + 1);
    }
    if (argsStart === -1 || NOT_CONFIGURATIONS.has(name) || CONTROL.has(lastSegment)) continue;
    if (name === 'add' || name.endsWith('.add')) {
      // dependencies.add("implementation", "g:a:v")
      const items = splitArgs(skeleton, argsStart, argsEnd);
      const configuration = items[0] && stringLiteral(ctx.code, skeleton, items[0][0], items[0][1]);
      if (configuration && items[1]) {
        const scope = gradleConfigurationScope(configuration);
        handleArgs(ctx, items[1][0], argsEnd, scope, line, 0);
      }
      continue;
    }
    if (name.includes('.')) continue;
    handleArgs(ctx, argsStart, argsEnd, gradleConfigurationScope(name), line, 0);
  }
}

/**
 * build.gradle / build.gradle.kts: declarations inside every `dependencies { }` block (including
 * `buildscript { dependencies { classpath ... } }`). String notation, map notation (Groovy `:` and
 * Kotlin named `=`), `platform(...)` BOMs (scope build), `kotlin("x")`, and version catalog
 * accessors resolved through the nearest `gradle/libs.versions.toml`. `$var` interpolation is not
 * evaluated: such versions stay declared text. Project, file and plugin references are skipped.
 */
export function extractGradleScript(input: ExtractInput): ExtractionResult {
  const errors: ExtractionError[] = [];
  if (input.text.length > MAX_SCRIPT_BYTES) {
    return {
      dependencies: [],
      errors: [{ line: null, message: 'build script too large to scan' }],
    };
  }
  const { code, skeleton } = lexScript(input.text);
  const ctx: Context = {
    input,
    code,
    skeleton,
    starts: lineStarts(input.text),
    dependencies: [],
    catalog: undefined,
  };
  const blocks = /\bdependencies\s*\{/g;
  let match = blocks.exec(skeleton);
  while (match) {
    const open = match.index + match[0].length - 1;
    const close = matchBracket(skeleton, open);
    if (close === -1) {
      errors.push({
        line: lineAt(ctx.starts, match.index),
        message: 'unterminated dependencies block',
      });
      walkBlock(ctx, open + 1, skeleton.length, 0);
      break;
    }
    walkBlock(ctx, open + 1, close, 0);
    blocks.lastIndex = close + 1;
    match = blocks.exec(skeleton);
  }
  return { dependencies: dedupeDependencies(ctx.dependencies), errors };
}

/** group:artifact → scopes a script declares it in (marks gradle.lockfile entries direct). */
export function declaredModules(input: ExtractInput): Map<string, Set<DependencyScope>> {
  const modules = new Map<string, Set<DependencyScope>>();
  for (const dep of extractGradleScript(input).dependencies) {
    const scopes = modules.get(dep.name) ?? new Set<DependencyScope>();
    scopes.add(dep.scope);
    modules.set(dep.name, scopes);
  }
  return modules;
}

export const gradleScriptExtractor: Extractor = {
  name: 'maven/gradle-script',
  version: 1,
  kind: 'manifest',
  matches: (path) => {
    const file = baseOf(path);
    return file === 'build.gradle' || file === 'build.gradle.kts';
  },
  extract: extractGradleScript,
  describe: (input) => (input.path.endsWith('.kts') ? 'Gradle Kotlin DSL script' : 'Gradle script'),
};
