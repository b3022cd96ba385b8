import { createRequire } from 'node:module';
import type { ParseResult } from '@yarnpkg/lockfile';
import type {
  DependencySource,
  ExtractInput,
  ExtractionError,
  ExtractionResult,
  Extractor,
} from '../types';
import {
  classifySpec,
  errorMessage,
  fileError,
  gitSource,
  isGitSpec,
  isRecord,
  MANIFEST_SCOPES,
  manifestSelf,
  readManifest,
  setOwn,
  sourceFromResolved,
  splitDescriptor,
  stringEntries,
} from './common';
import { LockGraph } from './graph';
import { berryMetadataVersion, extractBerry } from './yarn-berry';

/**
 * yarn.lock, both generations: v1 (Yarn Classic, its own indented format, parsed with
 * @yarnpkg/lockfile) and Berry v2+ (YAML with `__metadata`, see yarn-berry.ts).
 *
 * v1: one dependency per block (a block lists every descriptor that resolved to it); blocks that
 * resolve to the same name@version and scope are merged. Direct = a descriptor equal to a
 * `name@range` of the sibling package.json; scope from reachability from that manifest's
 * dependencies / optionalDependencies / devDependencies.
 */

// The package is CommonJS with an `__esModule` flag whose `default` is not the API: Node's ESM
// interop and Vite's disagree about what a default import yields, so load it the CommonJS way,
// on first use (most trees have no yarn.lock, and it is 280 kB to compile).
interface YarnLockfileApi {
  parse: (text: string) => ParseResult;
}
let loadedLockfile: YarnLockfileApi | undefined;
function lockfile(): YarnLockfileApi {
  loadedLockfile ??= createRequire(import.meta.url)('@yarnpkg/lockfile') as YarnLockfileApi;
  return loadedLockfile;
}

interface Block {
  line: number;
  descriptors: string[];
  start: number;
  end: number;
}

/** Splits a block header (`"a@^1", a@~1.2:`) into its descriptors. */
function headerDescriptors(header: string): string[] {
  const body = header.endsWith(':') ? header.slice(0, -1) : header;
  const out: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < body.length; i++) {
    const c = body[i] as string;
    if (c === '"' && body[i - 1] !== '\\') quoted = !quoted;
    if (c === ',' && !quoted) {
      out.push(current);
      current = '';
    } else {
      current += c;
    }
  }
  out.push(current);
  return out
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map((part) => {
      if (!part.startsWith('"')) return part;
      try {
        return JSON.parse(part) as string;
      } catch {
        return part.slice(1, -1);
      }
    });
}

/** Top-level blocks of a v1 lockfile: header line, descriptors and text extent. One pass. */
function v1Blocks(text: string): Block[] {
  const blocks: Block[] = [];
  let offset = 0;
  let line = 1;
  while (offset < text.length) {
    const newline = text.indexOf('\n', offset);
    const lineEnd = newline === -1 ? text.length : newline;
    const first = text.charCodeAt(offset);
    // Column-0 text that is not a comment starts a block (space 32, tab 9, '#' 35, CR 13).
    if (lineEnd > offset && first !== 32 && first !== 9 && first !== 35 && first !== 13) {
      const previous = blocks[blocks.length - 1];
      if (previous) previous.end = offset;
      const header = text.slice(offset, lineEnd).trimEnd();
      blocks.push({
        line,
        descriptors: headerDescriptors(header),
        start: offset,
        end: text.length,
      });
    }
    if (newline === -1) break;
    offset = newline + 1;
    line++;
  }
  return blocks;
}

type Parsed = Record<string, Record<string, unknown>>;

/**
 * 1-based line of the first double-quoted string left open at the end of its line, or null.
 * yarn v1 strings never span lines, and @yarnpkg/lockfile spins for half a minute (then fails
 * with "Invalid string length") on an unterminated one, so such text never reaches it.
 */
export function unterminatedStringLine(text: string): number | null {
  let line = 1;
  let open = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 /* \n */) {
      if (open) return line;
      line++;
    } else if (c === 34 /* " */) {
      open = !open;
    } else if (c === 92 /* \ */ && open) {
      i++;
    }
  }
  return open ? line : null;
}

function parseV1(text: string, blocks: Block[], errors: ExtractionError[]): Parsed {
  try {
    const open = unterminatedStringLine(text);
    if (open !== null) throw new Error(`unterminated string at line ${open}`);
    const result = lockfile().parse(text);
    if (result.type === 'conflict') {
      errors.push(fileError('yarn.lock has an unresolved merge conflict'));
      return {};
    }
    if (result.type === 'merge') {
      errors.push(fileError('yarn.lock has merge conflict markers; both sides were read'));
    }
    return result.object;
  } catch (error) {
    errors.push(fileError(`invalid yarn.lock: ${errorMessage(error)}`));
  }
  // Salvage block by block, so one broken block costs only itself.
  const object: Parsed = {};
  for (const block of blocks) {
    try {
      const blockText = text.slice(block.start, block.end);
      if (unterminatedStringLine(blockText) !== null) throw new Error('unterminated string');
      const parsed = lockfile().parse(blockText).object;
      for (const key of Object.keys(parsed)) setOwn(object, key, parsed[key]);
    } catch (error) {
      // The library's `line:col` is relative to the block; the block's own line is reported.
      const message = errorMessage(error).replace(/\s+\d+:\d+ in lockfile$/, '');
      errors.push({ line: block.line, message: `unparseable block: ${message}` });
    }
  }
  return object;
}

function v1Source(range: string, resolved: unknown): DependencySource {
  if (range.startsWith('file:') || range.startsWith('link:')) return classifySpec('', range).source;
  if (isGitSpec(range)) {
    return typeof resolved === 'string' && isGitSpec(resolved)
      ? gitSource(resolved)
      : gitSource(range);
  }
  return sourceFromResolved(resolved);
}

function extractV1(input: ExtractInput): ExtractionResult {
  const errors: ExtractionError[] = [];
  const blocks = v1Blocks(input.text);
  const errorCount = errors.length;
  const parsed = parseV1(input.text, blocks, errors);
  const salvaged = errors.length > errorCount;
  const graph = new LockGraph();
  const byDescriptor = new Map<string, number>();
  const nodeData: Record<string, unknown>[] = [];
  for (const block of blocks) {
    const descriptor = block.descriptors.find((d) => Object.hasOwn(parsed, d));
    if (descriptor === undefined) {
      // Blocks that failed the salvage parse were reported there.
      if (!salvaged)
        errors.push({ line: block.line, message: 'block header not understood; skipped' });
      continue;
    }
    const data = parsed[descriptor];
    const split = splitDescriptor(descriptor);
    if (!isRecord(data) || !split) {
      errors.push({
        line: block.line,
        message: `block ${descriptor} is not a package entry; skipped`,
      });
      continue;
    }
    if (typeof data.version !== 'string' || data.version.trim() === '') {
      errors.push({ line: block.line, message: `${descriptor} has no version; skipped` });
      continue;
    }
    // `alias@npm:real@^1` installs `real`.
    const alias = split.range.startsWith('npm:') ? splitDescriptor(split.range.slice(4)) : null;
    const index = graph.add({
      name: alias ? alias.name : split.name,
      version: data.version,
      line: block.line,
      source: v1Source(alias ? alias.range : split.range, data.resolved),
    });
    nodeData[index] = data;
    for (const d of block.descriptors) byDescriptor.set(d, index);
  }
  for (const [index, data] of nodeData.entries()) {
    if (!data) continue;
    for (const [field, optional] of [
      ['dependencies', false],
      ['optionalDependencies', true],
    ] as const) {
      for (const [dep, range] of stringEntries(data[field])) {
        const to = byDescriptor.get(`${dep}@${range}`);
        if (to !== undefined) graph.edge(index, to, optional);
      }
    }
  }
  const manifest = readManifest(input);
  if (manifest) {
    for (const [field, scope] of MANIFEST_SCOPES) {
      for (const [dep, range] of stringEntries(manifest[field])) {
        const to = byDescriptor.get(`${dep}@${range}`);
        if (to !== undefined) graph.root(to, scope, null);
      }
    }
    // Workspace members' package.json files cannot be listed through readFile, so what they
    // declare shows up only as packages nothing in the lockfile depends on: count those as direct.
    if (manifest.workspaces !== undefined) graph.rootOrphans();
  }
  // The project itself: v1 records no workspaces, so only the root package.json can name it.
  const own = manifestSelf(manifest, '.', null);
  const dependencies = graph.toDependencies();
  return { dependencies: own ? [own, ...dependencies] : dependencies, errors };
}

function isBerry(text: string): boolean {
  return /^__metadata:/m.test(text.slice(0, 4096));
}

export const yarnLockExtractor: Extractor = {
  name: 'npm/yarn-lock',
  version: 2,
  kind: 'lockfile',
  matches: (path) => path === 'yarn.lock' || path.endsWith('/yarn.lock'),
  extract: (input) => {
    try {
      return isBerry(input.text) ? extractBerry(input) : extractV1(input);
    } catch (error) {
      // Defensive: the third-party parsers are trusted to throw only what is caught above.
      return {
        dependencies: [],
        errors: [fileError(`yarn.lock could not be read: ${errorMessage(error)}`)],
      };
    }
  },
  describe: (input) => {
    if (!isBerry(input.text)) return 'yarn.lock v1';
    const version = berryMetadataVersion(input.text);
    return version === null ? 'yarn.lock berry' : `yarn.lock berry (metadata v${version})`;
  },
};
