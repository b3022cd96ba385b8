import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { LineCounter, visit } from 'yaml';
import { parseYaml } from '../../ecosystems/shared/yaml';
import { type JsToken, jsTokens } from './js-tokens';
import { readSource, type SourceFiles } from './source-tree';
import { candidatesOf, type ToolNames, toolNames, wordsOf } from './tool-names';

/**
 * npm packages used by tooling rather than imported by code (docs/reachability.md "Tooling"):
 * binaries run by package.json scripts (and git hooks under `.husky/`), and packages named by
 * tool configurations (jest presets and environments, babel presets and plugins, eslint
 * configs, plugins and parsers, prettier, stylelint, postcss, webpack loaders, tsconfig
 * `extends`, angular.json builders...), in configuration files or package.json sections. Every
 * string of a configuration counts, read with a tokenizer (never evaluated); matching is against
 * the repository's declared dependencies only.
 */

export interface ToolUse {
  file: string;
  line: number;
  /** The word or string as written (`plugin:vue/essential`, `vue-cli-service`). */
  import: string;
  /** How the tool uses it: `the package.json script "lint"`, `the tool configuration .babelrc`. */
  how: string;
}

export interface ToolingUses {
  used: Map<string, ToolUse>;
  /** Set when a tooling file could not be read: use by tooling cannot be ruled out. */
  incomplete: string | null;
}

/** package.json fields that are metadata or dependency lists, not tool settings. */
const PACKAGE_METADATA: ReadonlySet<string> = new Set([
  'name',
  'version',
  'description',
  'keywords',
  'homepage',
  'bugs',
  'license',
  'author',
  'contributors',
  'funding',
  'files',
  'main',
  'module',
  'browser',
  'exports',
  'imports',
  'types',
  'typings',
  'bin',
  'man',
  'directories',
  'repository',
  'engines',
  'os',
  'cpu',
  'private',
  'publishConfig',
  'workspaces',
  'type',
  'sideEffects',
  'packageManager',
  'dependencies',
  'devDependencies',
  'peerDependencies',
  'peerDependenciesMeta',
  'optionalDependencies',
  'bundleDependencies',
  'bundledDependencies',
  'overrides',
  'resolutions',
]);

/** Lockfiles larger than this are not read for their binaries (the table and names still work). */
const MAX_LOCKFILE_BYTES = 16 * 1024 * 1024;

interface Recorder {
  names: ToolNames;
  declared: ReadonlySet<string>;
  used: Map<string, ToolUse>;
}

/** Evidence quotes a script or string as written, up to a line's worth. */
const MAX_QUOTE = 120;

function shortened(text: string): string {
  return text.length <= MAX_QUOTE ? text : `${text.slice(0, MAX_QUOTE - 1)}…`;
}

function record(recorder: Recorder, text: string, site: Omit<ToolUse, 'import'>): void {
  for (const word of [text, ...wordsOf(text)]) {
    for (const name of candidatesOf(word, recorder.names)) {
      if (!recorder.declared.has(name) || recorder.used.has(name)) continue;
      recorder.used.set(name, { ...site, import: shortened(text) });
    }
  }
}

/** The top-level key each token of a JSON object text belongs to (null outside any). */
function jsonSections(tokens: readonly JsToken[]): (string | null)[] {
  const out: (string | null)[] = [];
  let depth = 0;
  let key: string | null = null;
  tokens.forEach((token, i) => {
    if (token.kind === 'punct' && (token.value === '{' || token.value === '[')) depth++;
    if (token.kind === 'punct' && (token.value === '}' || token.value === ']')) depth--;
    const next = tokens[i + 1];
    const isKey = token.kind === 'string' && next?.kind === 'punct' && next.value === ':';
    if (depth === 1 && isKey) key = token.value;
    out.push(depth >= 1 ? key : null);
  });
  return out;
}

function packageJson(recorder: Recorder, file: string, text: string): void {
  const tokens = jsTokens(text);
  const sections = jsonSections(tokens);
  tokens.forEach((token, i) => {
    const section = sections[i];
    if (token.kind !== 'string' || !section || PACKAGE_METADATA.has(section)) return;
    if (token.value === section) return;
    const how =
      section === 'scripts'
        ? `the package.json script ${JSON.stringify(scriptName(tokens, i))}`
        : `the "${section}" settings of ${file}`;
    record(recorder, token.value, { file, line: token.line, how });
  });
}

/** The script a value belongs to: the string before the `:` before it. */
function scriptName(tokens: readonly JsToken[], index: number): string {
  const colon = tokens[index - 1];
  const key = tokens[index - 2];
  if (colon?.value === ':' && key?.kind === 'string') return key.value;
  return tokens[index]?.value ?? '';
}

/** Strings and object keys (`plugins: { tailwindcss: {} }`) of a JavaScript or JSON text. */
function scriptConfig(recorder: Recorder, file: string, text: string): void {
  const how = `the tool configuration ${file}`;
  const tokens = jsTokens(text);
  tokens.forEach((token, i) => {
    const next = tokens[i + 1];
    const key = token.kind === 'name' && next?.kind === 'punct' && next.value === ':';
    if (token.kind === 'string' || key)
      record(recorder, token.value, { file, line: token.line, how });
  });
}

function yamlConfig(recorder: Recorder, file: string, text: string): string | null {
  const lineCounter = new LineCounter();
  const parsed = parseYaml(text, { lineCounter });
  if (!parsed.ok) return `${file} ${parsed.reason}`;
  const how = `the tool configuration ${file}`;
  visit(parsed.doc, {
    Scalar(_key, node) {
      if (typeof node.value !== 'string' || !node.range) return;
      const line = lineCounter.linePos(node.range[0]).line;
      record(recorder, node.value, { file, line, how });
    },
  });
  return null;
}

/** Git hooks and other shell scripts: every word of every line. */
function shellScript(recorder: Recorder, file: string, text: string): void {
  const how = `the script ${file}`;
  text.split('\n').forEach((line, index) => {
    if (line.trimStart().startsWith('#')) return;
    record(recorder, line.trim(), { file, line: index + 1, how });
  });
}

function formatOf(file: string, text: string): 'package' | 'script' | 'yaml' | 'shell' {
  const name = basename(file);
  if (name === 'package.json') return 'package';
  if (file.startsWith('.husky/') || file.includes('/.husky/')) return 'shell';
  if (/\.ya?ml$/.test(name)) return 'yaml';
  if (/\.(c|m)?(j|t)s$|\.json5?$/.test(name)) return 'script';
  // `.babelrc`, `.eslintrc`: JSON(5) when they open with `{`, else YAML.
  return text.trimStart().startsWith('{') ? 'script' : 'yaml';
}

/** Binary name → package from package-lock.json / npm-shrinkwrap.json `packages[...].bin`. */
async function lockfileBinaries(root: string, lockfiles: readonly string[]) {
  const out: [string, string][] = [];
  for (const file of lockfiles) {
    const text = await readFile(join(root, file), 'utf8').catch(() => null);
    if (text === null || text.length > MAX_LOCKFILE_BYTES) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      continue;
    }
    const packages = (parsed as { packages?: unknown }).packages;
    if (typeof packages !== 'object' || packages === null) continue;
    for (const [path, entry] of Object.entries(packages)) {
      const bin = (entry as { bin?: unknown } | null)?.bin;
      if (typeof bin !== 'object' || bin === null) continue;
      const name = path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
      for (const binary of Object.keys(bin)) out.push([binary, name]);
    }
  }
  return out;
}

export async function toolingUses(
  root: string,
  files: readonly string[],
  lockfiles: readonly string[],
  declared: ReadonlySet<string>,
): Promise<ToolingUses> {
  const names = toolNames(declared, await lockfileBinaries(root, lockfiles));
  const recorder: Recorder = { names, declared, used: new Map() };
  let incomplete: string | null = null;
  for (const file of files) {
    const text = await readSource(root, file);
    if (text === null) {
      incomplete ??= `the tooling file ${file} could not be read`;
      continue;
    }
    const format = formatOf(file, text);
    if (format === 'package') packageJson(recorder, file, text);
    else if (format === 'script') scriptConfig(recorder, file, text);
    else if (format === 'shell') shellScript(recorder, file, text);
    else incomplete ??= yamlConfig(recorder, file, text);
  }
  return { used: recorder.used, incomplete };
}

/** Stylesheet languages and the packages a build runs for them. */
const STYLE_PACKAGES: Readonly<Record<string, readonly string[]>> = {
  scss: ['sass', 'sass-embedded', 'node-sass', 'sass-loader'],
  sass: ['sass', 'sass-embedded', 'node-sass', 'sass-loader'],
  less: ['less', 'less-loader'],
  styl: ['stylus', 'stylus-loader'],
  stylus: ['stylus', 'stylus-loader'],
};

/** Tools that load packages by name without configuration, once the tool itself is used. */
const AUTO_LOADED: readonly { tool: string; prefixes: readonly string[] }[] = [
  { tool: '@vue/cli-service', prefixes: ['@vue/cli-plugin-', 'vue-cli-plugin-'] },
  { tool: 'karma', prefixes: ['karma-'] },
  { tool: 'astro', prefixes: ['@astrojs/'] },
];

/**
 * Uses no file names: `@types/*` packages (the TypeScript compiler loads every one by default),
 * stylesheet preprocessors (a `.scss` file or `<style lang="scss">` block), and the plugins a
 * used tool loads by their name's prefix (vue-cli-service: every `@vue/cli-plugin-*`).
 */
export function implicitUses(
  sources: SourceFiles,
  styles: ReadonlyMap<string, string>,
  names: ReadonlySet<string>,
  used: Map<string, ToolUse>,
  imported: ReadonlyMap<string, Omit<ToolUse, 'how'>>,
): void {
  const add = (name: string, use: ToolUse) => {
    if (names.has(name) && !used.has(name)) used.set(name, use);
  };
  const tsconfig = sources.tooling.find((file) => /(^|\/)tsconfig[^/]*\.json$/.test(file));
  const typescript = tsconfig ?? sources.files.js.find((file) => /\.(c|m)?tsx?$/.test(file));
  for (const name of names) {
    if (!typescript || !name.startsWith('@types/')) continue;
    const how = 'the TypeScript compiler, which loads every @types package by default';
    add(name, { file: typescript, line: 1, import: name, how });
  }
  for (const [style, file] of new Map([...styles, ...sources.styles])) {
    const how = `the build, for ${style} stylesheets`;
    for (const name of STYLE_PACKAGES[style] ?? [])
      add(name, { file, line: 1, import: style, how });
  }
  for (const { tool, prefixes } of AUTO_LOADED) {
    const at = used.get(tool) ?? imported.get(tool);
    if (!at) continue;
    const how = `${tool}, which loads every ${prefixes.join(' and ')}* package it finds`;
    for (const name of names) {
      if (prefixes.some((prefix) => name.startsWith(prefix))) {
        add(name, { file: at.file, line: at.line, import: at.import, how });
      }
    }
  }
}
