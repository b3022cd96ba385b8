/**
 * The first-party source walk: every file of a checked-out repository that a detector reads,
 * minus vendored dependencies, build output, minified bundles, generated and oversized files,
 * dispatched to its language's detector. Pure over a directory: it reads files and nothing else,
 * never follows a symbolic link, and bounds the files, bytes and depth it reads. A file whose
 * raw text holds none of its detector's tokens is not parsed (the prefilter), which is what
 * keeps a scan fast: most files of a repository never reach the parser.
 */
import { closeSync, type Dirent, fstatSync, openSync, readdirSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { detectorsByExtension, SOURCE_DETECTORS } from './detectors.js';
import type {
  LanguageDetector,
  SourceAlgorithmUse,
  SourceCryptoUse,
  SourceLanguage,
} from './types.js';

export interface SourceScanOptions {
  /** The detectors to dispatch to (default: all of detectors.ts). */
  detectors?: readonly LanguageDetector[];
  /** Skip parsing files without any of the detector's tokens (default true; the bench turns it off). */
  prefilter?: boolean;
  /** Files larger than this are skipped (default 1 MiB). */
  maxFileBytes?: number;
  /** At most this many source files are read (default 20,000); the rest are counted. */
  maxFiles?: number;
  /** At most this many bytes are read in all (default 256 MiB). */
  maxTotalBytes?: number;
  /** Folders deeper than this are not entered (default 40). */
  maxDepth?: number;
  /**
   * Sees every first-party file the walk reaches (the same folders left out): a source file with
   * the text already read, any other file by path only. The certificate and key reader finds its
   * files this way, so a scan walks the tree once.
   */
  visitFile?: (file: VisitedFile) => void;
}

export interface VisitedFile {
  /** Repository-relative, `/`-separated. */
  path: string;
  absolutePath: string;
  /** The text of a source file the walk read (not minified, generated or too large). */
  text?: string;
  /** The bytes that text was decoded from: a consumer that needs them reads nothing again. */
  bytes?: Buffer;
}

/** A use with the one source line it is on (trimmed, at most 200 characters). */
export interface SourceFinding extends SourceCryptoUse {
  snippet: string;
}

export interface ScannedSourceFile {
  /** Repository-relative, `/`-separated. */
  path: string;
  language: SourceLanguage;
  uses: SourceFinding[];
  algorithms: SourceAlgorithmUse[];
}

/** What the walk left out, as counts. */
export interface SourceScanSkips {
  /** Folders of dependencies or tools: node_modules, vendor, virtualenvs, .git, ... */
  vendoredFolders: number;
  /** Folders of build output: dist, build, out, target, coverage, .next, ... */
  buildFolders: number;
  symlinks: number;
  /** `*.min.js`, or text whose lines average over 300 characters or reach 10,000. */
  minified: number;
  /** Type declarations (`.d.ts`) and files marked generated (`Code generated ... DO NOT EDIT`). */
  generated: number;
  tooLarge: number;
  binary: number;
  /** Files past the file or byte limit. */
  overLimit: number;
  /** Files that could not be read or whose detector failed. */
  failed: number;
}

export interface SourceScanResult {
  /** Files with at least one use or algorithm, in path order. */
  files: ScannedSourceFile[];
  /** Source files read (a detector knows their extension). */
  filesRead: number;
  bytesRead: number;
  /** Files parsed (read and passed the prefilter). */
  filesParsed: number;
  skipped: SourceScanSkips;
  /** True when a limit stopped the walk before it saw every file. */
  truncated: boolean;
}

const VENDORED = new Set([
  'node_modules',
  'bower_components',
  'jspm_packages',
  'vendor',
  'third_party',
  'third-party',
  'thirdparty',
  'Pods',
  'Carthage',
  'site-packages',
  'dist-packages',
  '__pypackages__',
  '.venv',
  'venv',
  '.tox',
  '.nox',
  '.eggs',
  '.git',
  '.hg',
  '.svn',
  '.yarn',
  '.pnpm-store',
  '.m2',
]);

const BUILD_OUTPUT = new Set([
  'dist',
  'build',
  'out',
  'target',
  'obj',
  'coverage',
  '.next',
  '.nuxt',
  '.svelte-kit',
  '.output',
  '.angular',
  '.gradle',
  '.parcel-cache',
  '.turbo',
  '.cache',
  '.serverless',
  '.vercel',
  '.docusaurus',
  'storybook-static',
  '__pycache__',
  '.mypy_cache',
  '.pytest_cache',
  '.terraform',
]);

const MINIFIED_NAME = /[.-]min\.[cm]?js$/i;
const DECLARATION = /\.d\.[cm]?ts$/i;
const GENERATED_MARK = /^\/\/ Code generated .* DO NOT EDIT\.$/m;

const MAX_SNIPPET = 200;
/** Long base64 or hex runs (key bytes, certificates) never leave the scan in a snippet. */
const SECRET_RUN = /[A-Za-z0-9+/=_-]{40,}/g;

interface WalkState {
  options: Required<Omit<SourceScanOptions, 'detectors' | 'visitFile'>>;
  visitFile: ((file: VisitedFile) => void) | undefined;
  byExtension: ReadonlyMap<string, LanguageDetector>;
  result: SourceScanResult;
}

function emptyResult(): SourceScanResult {
  return {
    files: [],
    filesRead: 0,
    bytesRead: 0,
    filesParsed: 0,
    skipped: {
      vendoredFolders: 0,
      buildFolders: 0,
      symlinks: 0,
      minified: 0,
      generated: 0,
      tooLarge: 0,
      binary: 0,
      overLimit: 0,
      failed: 0,
    },
    truncated: false,
  };
}

/** True for text a minifier or bundler wrote: very long lines on average, or one huge line. */
export function looksMinified(text: string): boolean {
  let lines = 1;
  let start = 0;
  for (let end = text.indexOf('\n'); end >= 0; end = text.indexOf('\n', start)) {
    if (end - start > 10_000) return true;
    lines += 1;
    start = end + 1;
  }
  if (text.length - start > 10_000) return true;
  return text.length > 2_000 && text.length / lines > 300;
}

/** The trimmed source line of a use, bounded, with key-like runs of characters cut out. */
export function snippetOf(line: string): string {
  const clean = line.trim().replace(SECRET_RUN, '…');
  return clean.length > MAX_SNIPPET ? `${clean.slice(0, MAX_SNIPPET - 1)}…` : clean;
}

function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot).toLowerCase();
}

function listing(folder: string): Dirent[] | undefined {
  try {
    return readdirSync(folder, { withFileTypes: true }).sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
    );
  } catch {
    return undefined;
  }
}

/** A folder the scan does not enter, and why. */
function skippedFolder(
  name: string,
  entries: () => Dirent[] | undefined,
): 'vendored' | 'build' | undefined {
  if (VENDORED.has(name)) return 'vendored';
  if (BUILD_OUTPUT.has(name)) return 'build';
  // A Python virtualenv under any name (`env`, `.env3`) holds a pyvenv.cfg at its top.
  if (entries()?.some((entry) => entry.name === 'pyvenv.cfg' && entry.isFile())) return 'vendored';
  return undefined;
}

function skip(
  result: SourceScanResult,
  reason: keyof SourceScanSkips,
  truncates = false,
): undefined {
  result.skipped[reason] += 1;
  if (truncates) result.truncated = true;
  return undefined;
}

type Refusal = 'failed' | 'tooLarge' | 'overLimit';

/**
 * A file's bytes from one open: its size comes from the open descriptor, so a file over a limit
 * is refused unread and a file within them costs no separate stat of its path.
 */
function readWithin(path: string, refuse: (size: number) => Refusal | undefined): Buffer | Refusal {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return 'failed';
  }
  try {
    const size = fstatSync(fd).size;
    const refused = refuse(size);
    if (refused) return refused;
    const bytes = Buffer.allocUnsafe(size);
    let filled = 0;
    while (filled < size) {
      const count = readSync(fd, bytes, filled, size - filled, null);
      if (count === 0) break;
      filled += count;
    }
    return filled === size ? bytes : bytes.subarray(0, filled);
  } catch {
    return 'failed';
  } finally {
    closeSync(fd);
  }
}

/** Reads a candidate file within the limits; undefined (and a count) when it is skipped. */
function readCandidate(
  path: string,
  name: string,
  state: WalkState,
): { text: string; bytes: Buffer } | undefined {
  const { options, result } = state;
  if (MINIFIED_NAME.test(name)) return skip(result, 'minified');
  if (DECLARATION.test(name)) return skip(result, 'generated');
  if (result.filesRead >= options.maxFiles) return skip(result, 'overLimit', true);
  const bytes = readWithin(path, (size) => {
    if (size > options.maxFileBytes) return 'tooLarge';
    return result.bytesRead + size > options.maxTotalBytes ? 'overLimit' : undefined;
  });
  if (typeof bytes === 'string') return skip(result, bytes, bytes === 'overLimit');
  result.filesRead += 1;
  result.bytesRead += bytes.length;
  if (bytes.subarray(0, 8_000).includes(0)) return skip(result, 'binary');
  const text = bytes.toString('utf8');
  if (looksMinified(text)) return skip(result, 'minified');
  if (GENERATED_MARK.test(text.slice(0, 2_000))) return skip(result, 'generated');
  return { text, bytes };
}

async function scanFile(
  path: string,
  relative: string,
  detector: LanguageDetector,
  state: WalkState,
) {
  const read = readCandidate(path, relative.slice(relative.lastIndexOf('/') + 1), state);
  if (read === undefined) return;
  const { text } = read;
  state.visitFile?.({ path: relative, absolutePath: path, text, bytes: read.bytes });
  if (state.options.prefilter && detector.mayContain && !detector.mayContain(text)) return;
  state.result.filesParsed += 1;
  let report: Awaited<ReturnType<LanguageDetector['detect']>>;
  try {
    report = await detector.detect(relative, text);
  } catch {
    state.result.skipped.failed += 1;
    return;
  }
  if (report.uses.length === 0 && report.algorithms.length === 0) return;
  const lines = text.split('\n');
  const language = report.uses[0]?.language ?? report.algorithms[0]?.language ?? detector.language;
  state.result.files.push({
    path: relative,
    language,
    uses: report.uses.map((use) => ({ ...use, snippet: snippetOf(lines[use.line - 1] ?? '') })),
    algorithms: report.algorithms,
  });
}

async function walk(
  folder: string,
  relative: string,
  depth: number,
  state: WalkState,
): Promise<void> {
  const entries = listing(folder);
  if (!entries) {
    state.result.skipped.failed += 1;
    return;
  }
  for (const entry of entries) {
    const path = join(folder, entry.name);
    const child = relative === '' ? entry.name : `${relative}/${entry.name}`;
    if (entry.isSymbolicLink()) {
      state.result.skipped.symlinks += 1;
    } else if (entry.isDirectory()) {
      const reason = skippedFolder(entry.name, () => listing(path));
      if (reason === 'vendored') state.result.skipped.vendoredFolders += 1;
      else if (reason === 'build') state.result.skipped.buildFolders += 1;
      else if (depth >= state.options.maxDepth) state.result.truncated = true;
      else await walk(path, child, depth + 1, state);
    } else if (entry.isFile()) {
      const detector = state.byExtension.get(extensionOf(entry.name));
      if (detector) await scanFile(path, child, detector, state);
      else state.visitFile?.({ path: child, absolutePath: path });
    }
  }
}

/**
 * Scans the first-party source under `root` (a checkout) and returns, per file with anything
 * found, the uses of public-key cryptography with their snippets and the symmetric algorithms.
 */
export async function scanSourceTree(
  root: string,
  options: SourceScanOptions = {},
): Promise<SourceScanResult> {
  const state: WalkState = {
    options: {
      prefilter: options.prefilter ?? true,
      maxFileBytes: options.maxFileBytes ?? 1024 * 1024,
      maxFiles: options.maxFiles ?? 20_000,
      maxTotalBytes: options.maxTotalBytes ?? 256 * 1024 * 1024,
      maxDepth: options.maxDepth ?? 40,
    },
    byExtension: detectorsByExtension(options.detectors ?? SOURCE_DETECTORS),
    visitFile: options.visitFile,
    result: emptyResult(),
  };
  await walk(root, '', 0, state);
  return state.result;
}
