import { npmPackageOf } from './package-names';

/**
 * From a word of a package.json script or a string of a tool configuration to the npm packages
 * it may name (docs/reachability.md "Tooling"). Generous on purpose: a package wrongly counted as
 * used by tooling is merely not called not_imported, while the opposite hides a finding.
 */

/** Binaries whose package is named otherwise (a binary named as its package needs no entry). */
const BINARIES: Readonly<Record<string, readonly string[]>> = {
  tsc: ['typescript'],
  tsserver: ['typescript'],
  ng: ['@angular/cli'],
  'vue-cli-service': ['@vue/cli-service'],
  vue: ['@vue/cli'],
  nuxi: ['nuxi', 'nuxt'],
  playwright: ['@playwright/test', 'playwright'],
  babel: ['@babel/cli', 'babel-cli'],
  'babel-node': ['@babel/node', 'babel-cli'],
  changeset: ['@changesets/cli'],
  commitlint: ['@commitlint/cli'],
  'svelte-kit': ['@sveltejs/kit'],
  'run-s': ['npm-run-all', 'npm-run-all2'],
  'run-p': ['npm-run-all', 'npm-run-all2'],
  _mocha: ['mocha'],
  sb: ['storybook', '@storybook/cli'],
  swc: ['@swc/cli'],
  gulp: ['gulp', 'gulp-cli'],
  grunt: ['grunt-cli'],
  'api-extractor': ['@microsoft/api-extractor'],
  sequelize: ['sequelize-cli'],
  docusaurus: ['@docusaurus/core'],
  firebase: ['firebase-tools'],
  ncc: ['@vercel/ncc'],
  postcss: ['postcss-cli'],
  nest: ['@nestjs/cli'],
  cz: ['commitizen'],
  'git-cz': ['commitizen'],
  cpy: ['cpy-cli'],
  wdio: ['@wdio/cli'],
  ember: ['ember-cli'],
  remix: ['@remix-run/dev'],
  craco: ['@craco/craco'],
  'graphql-codegen': ['@graphql-codegen/cli'],
  depcruise: ['dependency-cruiser'],
  biome: ['@biomejs/biome'],
  redocly: ['@redocly/cli'],
  netlify: ['netlify-cli'],
  eleventy: ['@11ty/eleventy'],
  markdownlint: ['markdownlint-cli'],
  'electron-rebuild': ['@electron/rebuild', 'electron-rebuild'],
  'electron-forge': ['@electron-forge/cli'],
  lessc: ['less'],
  uglifyjs: ['uglify-js'],
  cleancss: ['clean-css-cli'],
  webpack: ['webpack', 'webpack-cli'],
  tailwindcss: ['tailwindcss', '@tailwindcss/cli'],
  'openapi-generator-cli': ['@openapitools/openapi-generator-cli'],
};

/** Prefixes tools put before a short name (`plugins: ['vue']` is `eslint-plugin-vue`). */
const PREFIXES = [
  'eslint-plugin',
  'eslint-config',
  'babel-plugin',
  'babel-preset',
  'prettier-plugin',
  'prettier-config',
  'stylelint-config',
  'stylelint-plugin',
  'jest-environment',
  'jest-preset',
  'postcss',
  'remark',
  'rehype',
  'commitlint-config',
  'tslint-config',
];

/** Inside a scope, `@babel/env` is `@babel/preset-env`, `@vue/prettier` `@vue/eslint-config-prettier`. */
const SCOPED_PREFIXES = ['preset', 'plugin', ...PREFIXES];

/** What a scope alone names (`plugins: ['@typescript-eslint']`). */
const SCOPE_PACKAGES = ['eslint-plugin', 'eslint-config', 'prettier-config', 'babel-preset'];

/** Last segments of scoped names too generic to stand for their package as a binary. */
const GENERIC_SEGMENTS: ReadonlySet<string> = new Set(['cli', 'core', 'test', 'types', 'config']);

export interface ToolNames {
  /** Binary name → packages that provide it (the lockfile's `bin` records, scoped names). */
  binaries: Map<string, Set<string>>;
}

export function toolNames(
  declared: Iterable<string>,
  lockfileBinaries: Iterable<[string, string]>,
): ToolNames {
  const binaries = new Map<string, Set<string>>();
  const add = (binary: string, name: string) => {
    const set = binaries.get(binary) ?? new Set<string>();
    set.add(name);
    binaries.set(binary, set);
  };
  for (const [binary, names] of Object.entries(BINARIES))
    for (const name of names) add(binary, name);
  for (const [binary, name] of lockfileBinaries) add(binary, name);
  for (const name of declared) {
    const segment = name.startsWith('@') ? name.slice(name.indexOf('/') + 1) : null;
    if (segment && !GENERIC_SEGMENTS.has(segment)) add(segment, name);
  }
  return { binaries };
}

const SEPARATORS = new Set([' ', '\t', '\n', '\r', ':', '=', ',', ';', '|', '&', '(', ')']);
const MAX_WORD = 214; // npm's longest package name

const QUOTES = new Set(['"', "'", '`', '<', '>']);

function unquoted(word: string): string {
  let from = 0;
  let to = word.length;
  while (from < to && QUOTES.has(word[from] as string)) from++;
  while (to > from && QUOTES.has(word[to - 1] as string)) to--;
  return word.slice(from, to);
}

/** The words of a command line or configuration string (split at blanks and `: = , ; | & ( )`). */
export function wordsOf(text: string): string[] {
  const words: string[] = [];
  let start = 0;
  for (let i = 0; i <= text.length; i++) {
    if (i < text.length && !SEPARATORS.has(text[i] as string)) continue;
    // Long runs are no package name: skipped before any further look (hostile text).
    const word = i - start <= MAX_WORD + 8 ? unquoted(text.slice(start, i)) : '';
    if (word !== '' && word.length <= MAX_WORD && !word.startsWith('-')) words.push(word);
    start = i + 1;
  }
  return words;
}

/** Every package name one word may stand for (to be matched against declared dependencies). */
export function candidatesOf(word: string, names: ToolNames): string[] {
  const installed = word.lastIndexOf('node_modules/');
  const text = installed === -1 ? word : word.slice(installed + 'node_modules/'.length);
  const out: string[] = [];
  for (const name of names.binaries.get(text) ?? []) out.push(name);
  if (/^@[^/]+$/.test(text)) {
    for (const suffix of SCOPE_PACKAGES) out.push(`${text}/${suffix}`);
    return out;
  }
  const base = npmPackageOf(text.replace(/^\.bin\//, ''));
  if (base === null) return out;
  out.push(base);
  if (base.startsWith('@')) {
    const [scope, rest] = base.split('/') as [string, string];
    for (const prefix of SCOPED_PREFIXES) out.push(`${scope}/${prefix}-${rest}`);
    for (const suffix of SCOPE_PACKAGES) out.push(`${scope}/${suffix}`);
  } else {
    for (const prefix of PREFIXES) out.push(`${prefix}-${base}`);
    out.push(`@commitlint/config-${base}`, `${base}-loader`);
  }
  return out;
}
