import type { Dirent } from 'node:fs';
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import { basename, dirname, join, posix, relative, sep } from 'node:path';
import { compositeKey } from '../core/composite-key';
import { ecosystems as registeredEcosystems } from './ecosystem-list';
import { NotTextError, openFileText } from './shared/file-text';
import { dirOf } from './shared/tree-paths';
import type {
  Ecosystem,
  EcosystemModule,
  ExtractedDependency,
  ExtractInput,
  ExtractionError,
  Extractor,
} from './types';

/**
 * The extraction engine (docs/extraction.md): finds the dependency files of a tree, runs the
 * extractor that claims each one, and applies the lockfile-wins rule. `extractPath` reads a
 * directory or a file from disk; `extractFiles` takes the files in memory (the scan worker,
 * tests). Both go through `extractOne` and `applyLockfileWins`, so they give the same result
 * for the same files.
 */

export interface ExtractedFile {
  /** Relative to the scanned root, forward slashes. */
  path: string;
  ecosystem: Ecosystem;
  /** Human label of the format as detected (`composer.lock (plugin-api 2.6.0)`). */
  format: string;
  /** Stable extractor id (`composer/composer-lock`). */
  extractor: string;
  dependencies: ExtractedDependency[];
  errors: ExtractionError[];
}

export interface TreeExtraction {
  files: ExtractedFile[];
}

export interface ExtractOptions {
  /** Files larger than this are reported as an error instead of being read. Default 64 MiB. */
  maxFileBytes?: number;
  /** Directory names never entered. Default `DEFAULT_SKIPPED_DIRECTORIES`. */
  skipDirectories?: ReadonlySet<string>;
  /** Ecosystems to use; default: every registered one. */
  ecosystems?: readonly EcosystemModule[];
  /**
   * Drop from a manifest what a lockfile beside it lists (default true). Off, every file keeps
   * everything its extractor found: what the corpus test compares with per-file entry counts.
   */
  lockfileWins?: boolean;
  /** Called before a claimed file is read (the scan's extraction worker reports progress). */
  onFileStart?: (file: { path: string; ecosystem: Ecosystem; extractor: string }) => void;
  /** Called with each file's result as soon as it is extracted. */
  onFileDone?: (file: ExtractedFile) => void;
  /** Claimed paths not read (an extraction restarted after a file was given up). */
  skipPaths?: ReadonlySet<string>;
}

export const DEFAULT_MAX_FILE_BYTES = 64 * 1024 * 1024;

/**
 * Installed or generated trees and tool caches: they hold copies of other projects' manifests
 * (node_modules/*\/package.json, vendor/*\/composer.json, target/**\/pom.xml), not this
 * project's dependencies. `build` and `dist` are not skipped: they are often real source folders
 * (`build/docker/Dockerfile`), and generated output rarely contains a claimed file.
 */
export const DEFAULT_SKIPPED_DIRECTORIES: ReadonlySet<string> = new Set([
  '.git',
  '.hg',
  '.svn',
  '.bzr',
  'node_modules',
  'bower_components',
  'jspm_packages',
  '.pnpm-store',
  '.yarn',
  'vendor',
  '.venv',
  'venv',
  '__pycache__',
  '.tox',
  '.nox',
  'site-packages',
  'target',
  '.gradle',
  // Test data by convention (Jest, Renovate's default ignore list): deliberately broken or
  // outdated dependency files that are not the project's own. A target named so is still read.
  '__fixtures__',
]);

/** Deeper trees are not walked further (a guard, far beyond any real repository). */
const MAX_DEPTH = 64;

interface Claim {
  ecosystem: EcosystemModule;
  extractor: Extractor;
}

/** Claim order: every lockfile extractor before any manifest one, registry order within each. */
function claimOrder(ecosystems: readonly EcosystemModule[]): Claim[] {
  const all = ecosystems.flatMap((ecosystem) =>
    ecosystem.extractors.map((extractor) => ({ ecosystem, extractor })),
  );
  return [
    ...all.filter((c) => c.extractor.kind === 'lockfile'),
    ...all.filter((c) => c.extractor.kind !== 'lockfile'),
  ];
}

function claim(claims: readonly Claim[], path: string): Claim | undefined {
  return claims.find((c) => {
    try {
      return c.extractor.matches(path);
    } catch {
      return false;
    }
  });
}

/**
 * A path an extractor asked for, made relative to the root: backslashes count as separators,
 * `.` and `..` are resolved, and anything absolute or escaping the root is refused (null).
 */
export function normaliseTreePath(path: string): string | null {
  if (path.includes('\u0000')) return null;
  const slashed = path.replace(/\\/g, '/');
  if (slashed.startsWith('/') || /^[a-zA-Z]:/.test(slashed)) return null;
  const normalised = posix.normalize(slashed);
  if (normalised === '.' || normalised === '..' || normalised.startsWith('../')) return null;
  return normalised.replace(/^\.\//, '').replace(/\/$/, '');
}

const stripBom = (text: string): string => (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A file's bytes as text, or why they are not text: a NUL byte (a binary file named like a
 * dependency file) or an invalid UTF-8 sequence. Decoded once, from the one buffer read.
 */
export function decodeText(bytes: Uint8Array): { text: string } | { error: string } {
  if (bytes.includes(0)) return { error: 'binary file (contains NUL bytes): not parsed' };
  try {
    return { text: strictUtf8.decode(bytes) };
  } catch {
    return { error: 'not valid UTF-8 text: not parsed' };
  }
}

function fileEntry(path: string, c: Claim, format: string): ExtractedFile {
  return {
    path,
    ecosystem: c.ecosystem.id,
    format,
    extractor: c.extractor.name,
    dependencies: [],
    errors: [],
  };
}

/** Runs one extractor on one file. A throwing extractor becomes a whole-file error. */
export function extractOne(
  path: string,
  text: string,
  c: Claim,
  readTreeFile: (path: string) => string | null,
): ExtractedFile {
  const input: ExtractInput = { path, text: stripBom(text), readFile: readTreeFile };
  let format = c.extractor.name;
  try {
    format = c.extractor.describe?.(input) ?? format;
  } catch {
    // The label is cosmetic; keep the extractor name.
  }
  const file = fileEntry(path, c, format);
  try {
    const result = c.extractor.extract(input);
    file.dependencies = result.dependencies;
    file.errors = result.errors;
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    file.errors = [{ line: null, message: `${c.extractor.name} failed: ${message}` }];
  }
  return file;
}

/**
 * Lockfile wins: in one directory, a manifest of an ecosystem that also has a lockfile there
 * keeps only the dependencies no lockfile of that ecosystem lists (by normalised name); the
 * lockfile's resolved entries stand for the rest. Compared per ecosystem, so a Dockerfile never
 * loses anything to a package-lock.json.
 */
export function applyLockfileWins(
  files: ExtractedFile[],
  kinds: ReadonlyMap<string, Extractor['kind']>,
  ecosystems: readonly EcosystemModule[],
): ExtractedFile[] {
  const byId = new Map(ecosystems.map((e) => [e.id, e]));
  const locked = new Map<string, Set<string>>();
  const groupKey = (f: ExtractedFile) => compositeKey(f.ecosystem, dirOf(f.path));
  for (const file of files) {
    if (kinds.get(file.extractor) !== 'lockfile') continue;
    const normalise = byId.get(file.ecosystem)?.normaliseName ?? ((n: string) => n);
    const names = locked.get(groupKey(file)) ?? new Set<string>();
    for (const dep of file.dependencies) names.add(normalise(dep.name));
    locked.set(groupKey(file), names);
  }
  return files.map((file) => {
    const names = locked.get(groupKey(file));
    if (!names || kinds.get(file.extractor) === 'lockfile') return file;
    return withoutLocked(file, names, byId.get(file.ecosystem)?.normaliseName ?? ((n) => n));
  });
}

function finish(
  files: ExtractedFile[],
  claims: readonly Claim[],
  ecosystems: readonly EcosystemModule[],
  options: ExtractOptions,
): TreeExtraction {
  if (options.lockfileWins === false) return { files };
  const kinds = new Map(claims.map((c) => [c.extractor.name, c.extractor.kind]));
  return { files: applyLockfileWins(files, kinds, ecosystems) };
}

/**
 * Extracts dependencies from files held in memory (`path` → text, paths relative to a root).
 * Extractors can read any of these files through `readFile`, and nothing else.
 */
export function extractFiles(
  files: ReadonlyMap<string, string>,
  options: ExtractOptions = {},
): TreeExtraction {
  const ecosystems = options.ecosystems ?? registeredEcosystems;
  const maxBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const claims = claimOrder(ecosystems);
  const normalised = new Map<string, string>();
  for (const [path, text] of files) {
    const key = normaliseTreePath(path);
    if (key !== null) normalised.set(key, text);
  }
  const readTreeFile = (path: string): string | null => {
    const key = normaliseTreePath(path);
    return key === null ? null : (normalised.get(key) ?? null);
  };
  const out: ExtractedFile[] = [];
  for (const path of [...normalised.keys()].sort()) {
    const c = claim(claims, path);
    if (!c) continue;
    const text = normalised.get(path)!;
    const bytes = Buffer.byteLength(text, 'utf8');
    if (bytes > maxBytes) {
      out.push(tooLarge(path, c, bytes, maxBytes));
      continue;
    }
    out.push(extractOne(path, text, c, readTreeFile));
  }
  return finish(out, claims, ecosystems, options);
}

function tooLarge(path: string, c: Claim, bytes: number, maxBytes: number): ExtractedFile {
  const file = fileEntry(path, c, c.extractor.name);
  file.errors = [
    { line: null, message: `file is ${bytes} bytes, above the ${maxBytes}-byte limit: not parsed` },
  ];
  return file;
}

function unreadable(path: string, c: Claim, reason: string): ExtractedFile {
  const file = fileEntry(path, c, c.extractor.name);
  file.errors = [{ line: null, message: reason }];
  return file;
}

function isInside(root: string, real: string): boolean {
  const rel = relative(root, real);
  return rel === '' || (!rel.startsWith('..') && !rel.startsWith(sep) && !/^[a-zA-Z]:/.test(rel));
}

/** Sync reader for extractors: inside the root only, symlinks resolved, size-capped. */
function diskReader(root: string, maxBytes: number): (path: string) => string | null {
  return (path) => {
    const rel = normaliseTreePath(path);
    if (rel === null) return null;
    try {
      const real = realpathSync(join(root, rel));
      if (!isInside(root, real)) return null;
      const info = statSync(real);
      if (!info.isFile() || info.size > maxBytes) return null;
      const decoded = decodeText(readFileSync(real));
      return 'text' in decoded ? stripBom(decoded.text) : null;
    } catch {
      return null;
    }
  };
}

interface Candidate {
  path: string;
  claim: Claim;
  symlink: boolean;
}

/** Characters of a streamed file `describe` sees. */
const STREAMED_HEAD_CHARS = 4096;

/**
 * A large file its extractor reads in pieces (`Extractor.stream`): never held whole. Null when
 * the file must be read whole after all (the extractor says so, or the bytes are not text: the
 * whole-file path reports that). Read errors propagate (the caller reports them).
 */
function extractStreamed(
  absolute: string,
  path: string,
  c: Claim,
  extract: NonNullable<Extractor['stream']>['extract'],
  readTreeFile: (path: string) => string | null,
): ExtractedFile | null {
  const file = openFileText(absolute);
  let head = '';
  const text = () => {
    const piece = file.next();
    if (piece !== null && head.length < STREAMED_HEAD_CHARS) {
      head += piece.slice(0, STREAMED_HEAD_CHARS - head.length);
    }
    return piece;
  };
  try {
    const result = extract({ path, text, readFile: readTreeFile });
    if (!result) return null;
    let format = c.extractor.name;
    try {
      format = c.extractor.describe?.({ path, text: head, readFile: readTreeFile }) ?? format;
    } catch {
      // The label is cosmetic; keep the extractor name.
    }
    const extracted = fileEntry(path, c, format);
    extracted.dependencies = result.dependencies;
    extracted.errors = result.errors;
    return extracted;
  } catch (err) {
    if (err instanceof NotTextError) return null;
    if (typeof (err as NodeJS.ErrnoException).code === 'string') throw err;
    const failed = fileEntry(path, c, c.extractor.name);
    const message = err instanceof Error ? err.message : String(err);
    failed.errors = [{ line: null, message: `${c.extractor.name} failed: ${message}` }];
    return failed;
  } finally {
    file.close();
  }
}

/** One claimed file read from disk (once, as bytes) and extracted; null when not a file. */
async function extractFromDisk(
  root: string,
  path: string,
  c: Claim,
  symlink: boolean,
  maxBytes: number,
  readTreeFile: (path: string) => string | null,
): Promise<ExtractedFile | null> {
  const absolute = join(root, path);
  let resolved = absolute;
  try {
    if (symlink) {
      resolved = await realpath(absolute);
      if (!isInside(root, resolved)) {
        return unreadable(path, c, 'symlink to a file outside the scanned tree: not read');
      }
    }
    const fileInfo = await stat(resolved);
    if (!fileInfo.isFile()) return null;
    if (fileInfo.size > maxBytes) return tooLarge(path, c, fileInfo.size, maxBytes);
    const stream = c.extractor.stream;
    if (stream && fileInfo.size >= stream.fromBytes) {
      const streamed = extractStreamed(resolved, path, c, stream.extract, readTreeFile);
      if (streamed) return streamed;
    }
    const decoded = decodeText(await readFile(resolved));
    if ('error' in decoded) return unreadable(path, c, decoded.error);
    return extractOne(path, decoded.text, c, readTreeFile);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'error';
    return unreadable(path, c, `cannot read the file (${code})`);
  }
}

/** What a tree walk needs besides the directory: the same for every directory of one walk. */
interface WalkContext {
  root: string;
  claims: readonly Claim[];
  skip: ReadonlySet<string>;
  maxBytes: number;
  readTreeFile: (path: string) => string | null;
  options: ExtractOptions;
}

const normaliserOf = (c: Claim): ((name: string) => string) =>
  c.ecosystem.normaliseName ?? ((name: string) => name);

/** A manifest without what the given lockfile names list (lockfile wins, one file). */
function withoutLocked(
  file: ExtractedFile,
  names: ReadonlySet<string>,
  normalise: (name: string) => string,
): ExtractedFile {
  return { ...file, dependencies: file.dependencies.filter((d) => !names.has(normalise(d.name))) };
}

/**
 * Extracts the claimed files of one directory in order, lockfile wins applied. A manifest needs
 * the names every lockfile of its ecosystem in this directory lists, and `composer.json` sorts
 * before `composer.lock`: such lockfiles are extracted ahead of their turn and held until it
 * comes, so only one directory's lockfiles are ever held, never the tree's files.
 */
class DirectoryExtraction {
  /** Lockfiles extracted ahead of their turn (null: not a file), by path. */
  private readonly ahead = new Map<string, ExtractedFile | null>();
  /** Names listed by this directory's lockfiles, per ecosystem, once all of them are read. */
  private readonly locked = new Map<string, Set<string>>();

  constructor(
    private readonly context: WalkContext,
    private readonly files: readonly Candidate[],
  ) {}

  private read(candidate: Candidate): Promise<ExtractedFile | null> {
    const { root, maxBytes, readTreeFile, options } = this.context;
    const { path, claim: c, symlink } = candidate;
    options.onFileStart?.({ path, ecosystem: c.ecosystem.id, extractor: c.extractor.name });
    return extractFromDisk(root, path, c, symlink, maxBytes, readTreeFile).then((file) => {
      if (file) options.onFileDone?.(file);
      return file;
    });
  }

  private async lockedNames(c: Claim): Promise<Set<string>> {
    const ecosystem = c.ecosystem.id;
    const known = this.locked.get(ecosystem);
    if (known) return known;
    const names = new Set<string>();
    for (const other of this.files) {
      if (other.claim.extractor.kind !== 'lockfile' || other.claim.ecosystem.id !== ecosystem) {
        continue;
      }
      if (this.context.options.skipPaths?.has(other.path)) continue;
      let file = this.ahead.get(other.path);
      if (file === undefined) {
        file = await this.read(other);
        this.ahead.set(other.path, file);
      }
      const normalise = normaliserOf(other.claim);
      for (const dep of file?.dependencies ?? []) names.add(normalise(dep.name));
    }
    this.locked.set(ecosystem, names);
    return names;
  }

  /** The file as extractPath reports it, or null when it is skipped or not a file. */
  async extract(candidate: Candidate): Promise<ExtractedFile | null> {
    if (this.context.options.skipPaths?.has(candidate.path)) return null;
    const c = candidate.claim;
    if (c.extractor.kind === 'lockfile') {
      const held = this.ahead.get(candidate.path);
      if (held !== undefined) {
        this.ahead.delete(candidate.path);
        return held;
      }
      return this.read(candidate);
    }
    const file = await this.read(candidate);
    if (!file || this.context.options.lockfileWins === false) return file;
    const hasLockfile = this.files.some(
      (f) => f.claim.extractor.kind === 'lockfile' && f.claim.ecosystem.id === c.ecosystem.id,
    );
    if (!hasLockfile) return file;
    const names = await this.lockedNames(c);
    return names.size === 0 ? file : withoutLocked(file, names, normaliserOf(c));
  }
}

/**
 * The extracted files under `dir` in path order (sorted entries, depth first), without entering
 * skipped directories or symlinked ones.
 */
async function* walkDirectory(
  context: WalkContext,
  dir: string,
  depth: number,
): AsyncGenerator<ExtractedFile> {
  if (depth > MAX_DEPTH) return;
  let entries: Dirent[];
  try {
    entries = await readdir(dir ? join(context.root, dir) : context.root, { withFileTypes: true });
  } catch {
    return; // unreadable directory: nothing to claim there
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const claimed = new Map<string, Candidate>();
  for (const entry of entries) {
    if (entry.isDirectory() || !(entry.isFile() || entry.isSymbolicLink())) continue;
    const path = dir ? `${dir}/${entry.name}` : entry.name;
    const c = claim(context.claims, path);
    if (c) claimed.set(entry.name, { path, claim: c, symlink: entry.isSymbolicLink() });
  }
  const directory = new DirectoryExtraction(context, [...claimed.values()]);
  for (const entry of entries) {
    // Symlinked directories are never entered: they could leave the tree or loop.
    if (entry.isDirectory()) {
      if (!context.skip.has(entry.name)) {
        yield* walkDirectory(context, dir ? `${dir}/${entry.name}` : entry.name, depth + 1);
      }
      continue;
    }
    const candidate = claimed.get(entry.name);
    if (!candidate) continue;
    const file = await directory.extract(candidate);
    if (file) yield file;
  }
}

/** A directory tree or a single file on disk, opened for reading (see `openTree`). */
export interface OpenedTree {
  /**
   * The tree's extracted files in path order, one at a time, lockfile wins applied (unless
   * turned off): walked and read again on every call, so a caller holds only the file at hand.
   */
  files(): AsyncGenerator<ExtractedFile>;
}

/**
 * Opens a directory tree or a single file on disk for extraction. Paths of the files are relative
 * to the directory (or to the file's directory), with forward slashes. Throws only when the target
 * itself cannot be read.
 */
export async function openTree(target: string, options: ExtractOptions = {}): Promise<OpenedTree> {
  const ecosystems = options.ecosystems ?? registeredEcosystems;
  const maxBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const claims = claimOrder(ecosystems);
  const real = await realpath(target);
  const info = await stat(real);
  const root = info.isDirectory() ? real : dirname(real);
  const context: WalkContext = {
    root,
    claims,
    skip: options.skipDirectories ?? DEFAULT_SKIPPED_DIRECTORIES,
    maxBytes,
    readTreeFile: diskReader(root, maxBytes),
    options,
  };
  if (info.isDirectory()) return { files: () => walkDirectory(context, '', 0) };
  const path = basename(real);
  const c = claim(claims, path);
  const single: Candidate[] = c ? [{ path, claim: c, symlink: false }] : [];
  return {
    async *files() {
      const directory = new DirectoryExtraction(context, single);
      for (const candidate of single) {
        const file = await directory.extract(candidate);
        if (file) yield file;
      }
    },
  };
}

/**
 * Extracts dependencies from a directory tree or a single file on disk, all files at once (see
 * `openTree` for one at a time). With lockfile wins on, a lockfile a manifest of its directory
 * needs is read (and reported to `onFileStart`/`onFileDone`) before that manifest.
 * Throws only when the target itself cannot be read.
 */
export async function extractPath(
  target: string,
  options: ExtractOptions = {},
): Promise<TreeExtraction> {
  const tree = await openTree(target, options);
  const files: ExtractedFile[] = [];
  for await (const file of tree.files()) files.push(file);
  return { files };
}
