import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { JS_EXTENSIONS } from './js-imports';

/**
 * The first-party source files of a checked-out tree, by language, within limits: symlinks are
 * never followed, installed and generated folders are skipped, a file over `maxFileBytes` (or
 * past `maxFiles` / `maxTotalBytes`) is not read and makes its language's analysis incomplete.
 */

export type SourceLanguage = 'js' | 'python' | 'go';

export interface ReachabilityLimits {
  maxFiles: number;
  maxFileBytes: number;
  maxTotalBytes: number;
  /** Time for the whole analysis of one language: a base plus this much per MiB read. */
  baseTimeoutMs: number;
  timeoutMsPerMiB: number;
}

export const DEFAULT_REACHABILITY_LIMITS: ReachabilityLimits = {
  maxFiles: 20_000,
  maxFileBytes: 1024 * 1024,
  maxTotalBytes: 64 * 1024 * 1024,
  baseTimeoutMs: 10_000,
  timeoutMsPerMiB: 2_000,
};

/** Installed, vendored, generated and tool folders: not the repository's own code. */
export const SKIPPED_SOURCE_DIRECTORIES: ReadonlySet<string> = new Set([
  '.git',
  '.hg',
  '.svn',
  'node_modules',
  'bower_components',
  'vendor',
  'third_party',
  'dist',
  'build',
  'out',
  'coverage',
  '.next',
  '.nuxt',
  '.venv',
  'venv',
  'env',
  '.tox',
  '.nox',
  'site-packages',
  '__pycache__',
  '.mypy_cache',
  'target',
]);

export interface SourceFiles {
  files: Record<SourceLanguage, string[]>;
  /**
   * package.json files, tool configurations and git hooks (docs/reachability.md "Tooling"),
   * within the same limits; a JavaScript configuration is in `files.js` too.
   */
  tooling: string[];
  /** package-lock.json / npm-shrinkwrap.json files, read only for their binaries' names. */
  lockfiles: string[];
  /** Extensions of stylesheet files that need a preprocessor (`scss`, `less`...) → first file. */
  styles: Map<string, string>;
  /** Files of each language that were not read (too large, over the limits). */
  skipped: Record<SourceLanguage | 'tooling', string[]>;
  bytes: Record<SourceLanguage, number>;
}

/** Tools whose `.<tool>rc` files name packages. */
const RC_TOOLS: ReadonlySet<string> = new Set([
  'babel',
  'eslint',
  'prettier',
  'stylelint',
  'postcss',
  'mocha',
  'nyc',
  'c8',
  'ava',
  'lintstaged',
  'release',
  'swc',
  'husky',
  'commitlint',
  'markdownlint',
  'remark',
  'jsdoc',
  'browserslist',
  'tslint',
  'textlint',
  'cz',
  'svgo',
  'xo',
  'jshint',
  'htmlhint',
  'size-limit',
  'jest',
  'vitest',
  'storybook',
]);

const CONFIG_EXTENSION = /\.(c|m)?(j|t)s$|\.json5?$|\.ya?ml$/;

/** Tool configurations by name: `*.config.*`, `.*rc*`, tsconfig, angular.json, git hooks... */
export function isToolingFile(path: string, name: string): boolean {
  if (name === 'package.json') return true;
  if (path.startsWith('.husky/') && !path.startsWith('.husky/_/')) return true;
  if (path.includes('/.husky/') && !path.includes('/.husky/_/')) return true;
  if (path.startsWith('.storybook/') || path.includes('/.storybook/')) return true;
  if (/^(ts|js)config.*\.json$/.test(name)) return true;
  if (['angular.json', 'nx.json', 'project.json', 'workspace.json'].includes(name)) return true;
  if (/^(karma\.conf|gulpfile|gruntfile)\./i.test(name)) return true;
  if (name.includes('.config.') && CONFIG_EXTENSION.test(name)) return true;
  // `.babelrc`, `.eslintrc.json`, `.mocharc.yml`, `.lintstagedrc`... by tool: never `.npmrc`,
  // `.envrc` and other rc files that hold credentials or settings of no package.
  const rc = /^\.([\w-]+)rc(\.\w+)?$/.exec(name);
  return rc !== null && RC_TOOLS.has(rc[1] as string);
}

function languageOf(name: string): SourceLanguage | null {
  if (name.endsWith('.d.ts') || name.endsWith('.min.js')) return null;
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return null;
  const extension = name.slice(dot);
  if (JS_EXTENSIONS.has(extension)) return 'js';
  if (extension === '.py') return 'python';
  if (extension === '.go') return 'go';
  return null;
}

export async function listSourceFiles(
  root: string,
  limits: ReachabilityLimits,
): Promise<SourceFiles> {
  const out: SourceFiles = {
    files: { js: [], python: [], go: [] },
    tooling: [],
    lockfiles: [],
    styles: new Map(),
    skipped: { js: [], python: [], go: [], tooling: [] },
    bytes: { js: 0, python: 0, go: 0 },
  };
  let count = 0;
  let total = 0;
  const queue = [''];
  for (let head = 0; head < queue.length; head++) {
    const dir = queue[head] as string;
    let entries: import('node:fs').Dirent[];
    try {
      entries = await readdir(join(root, dir), { withFileTypes: true });
    } catch {
      continue;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const path = dir === '' ? entry.name : `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!SKIPPED_SOURCE_DIRECTORIES.has(entry.name)) queue.push(path);
        continue;
      }
      if (!entry.isFile()) continue; // symlinks and devices are never followed
      if (entry.name === 'package-lock.json' || entry.name === 'npm-shrinkwrap.json') {
        out.lockfiles.push(path);
        continue;
      }
      const style = /\.(scss|sass|less|styl|stylus)$/.exec(entry.name);
      if (style && !out.styles.has(style[1] as string)) out.styles.set(style[1] as string, path);
      const language = languageOf(entry.name);
      const tooling = isToolingFile(path, entry.name);
      if (!language && !tooling) continue;
      const size =
        (await stat(join(root, path)).catch(() => null))?.size ?? Number.POSITIVE_INFINITY;
      if (
        size > limits.maxFileBytes ||
        count >= limits.maxFiles ||
        total + size > limits.maxTotalBytes
      ) {
        if (language) out.skipped[language].push(path);
        if (tooling) out.skipped.tooling.push(path);
        continue;
      }
      count++;
      total += size;
      if (tooling) out.tooling.push(path);
      if (language) {
        out.bytes[language] += size;
        out.files[language].push(path);
      }
    }
  }
  return out;
}

/** Reads one listed file; null when it vanished or is not text. */
export async function readSource(root: string, path: string): Promise<string | null> {
  try {
    return await readFile(join(root, path), 'utf8');
  } catch {
    return null;
  }
}

export function timeoutFor(bytes: number, limits: ReachabilityLimits): number {
  return limits.baseTimeoutMs + Math.ceil((bytes / (1024 * 1024)) * limits.timeoutMsPerMiB);
}
