import type {
  DependencySource,
  ExtractedDependency,
  ExtractInput,
  ExtractionError,
  ExtractionResult,
  Extractor,
} from '../types';
import {
  dedupe,
  isTable,
  isValidName,
  makeDependency,
  normaliseName,
  siblingPath,
  stringOf,
} from './common';
import { categoryScope, pipfileDirectNames } from './extract-pipfile';
import { analyseUrl, isUrl } from './pep508';

/**
 * Pipfile.lock (JSON): `default` is runtime, `develop` development, any other top-level key but
 * `_meta` a pipenv category. Every entry is resolved (`"version": "==1.2.3"`).
 *
 * The lock records no edges, so `direct` comes from the sibling Pipfile: an entry is direct when
 * the matching Pipfile category names it. Without a readable Pipfile nothing shows which entries
 * were asked for, so all are reported as transitive (direct: false) rather than guessed.
 */

type JsonObject = Record<string, unknown>;

/**
 * pipenv writes the lock with 4-space indentation: section keys at 4 spaces, package keys at 8.
 * One regex pass over that layout finds every package line; other layouts use `scanEntries`.
 */
function quickEntryLines(text: string): Map<string, number> {
  const out = new Map<string, number>();
  let section = '';
  let line = 1;
  for (let start = 0; start < text.length; line++) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    // `    "key": {` (a section) or `        "key": {` (a package); nothing else matters here.
    if (text.startsWith('    "', start) || text.startsWith('        "', start)) {
      const indent = text.charCodeAt(start + 4) === 34 ? 4 : 8;
      const close = text.indexOf('"', start + indent + 1);
      if (close !== -1 && close < end && text.slice(close + 1, end).trimEnd() === ': {') {
        const key = text.slice(start + indent + 1, close);
        if (indent === 4) section = key;
        else out.set(`${section}\u0000${key}`, line);
      }
    }
    start = end + 1;
  }
  return out;
}

/**
 * Lines of the keys two levels deep (`"default": { "name": {`), found in one pass that tracks
 * strings and nesting, so any indentation (or none) works.
 */
function scanEntries(text: string): { lines: Map<string, number>; versions: Map<string, string> } {
  const out = new Map<string, number>();
  const versions = new Map<string, string>();
  let entry = '';
  let depth = 0;
  let line = 1;
  let section = '';
  let i = 0;
  const n = text.length;
  while (i < n) {
    const ch = text.charCodeAt(i);
    if (ch === 10) {
      line++;
      i++;
      continue;
    }
    if (ch === 34) {
      // a string: read it, then see whether it is a key (followed by ':')
      const startLine = line;
      let j = i + 1;
      while (j < n) {
        const c = text.charCodeAt(j);
        if (c === 92) j += 2;
        else if (c === 34) break;
        else {
          if (c === 10) line++;
          j++;
        }
      }
      const value = text.slice(i + 1, j);
      let k = j + 1;
      while (
        k < n &&
        (text[k] === ' ' || text[k] === '\t' || text[k] === '\r' || text[k] === '\n')
      ) {
        if (text[k] === '\n') line++;
        k++;
      }
      if (text[k] === ':') {
        if (depth === 1) section = value;
        else if (depth === 2) {
          entry = `${section}\u0000${value}`;
          out.set(entry, startLine);
        } else if (depth === 3 && value === 'version') {
          // kept for salvaging a truncated lock, where JSON.parse gives nothing
          const version = /^\s*"([^"\\\n]*)"/.exec(text.slice(k + 1, k + 200));
          if (version) versions.set(entry, version[1]!);
        }
      }
      i = k;
      continue;
    }
    if (ch === 123 || ch === 91) depth++;
    else if (ch === 125 || ch === 93) depth--;
    i++;
  }
  return { lines: out, versions };
}

function lockedVersion(value: JsonObject): string | null {
  const version = stringOf(value.version);
  if (!version) return null;
  return version.replace(/^===?\s*/, '').trim() || null;
}

function lockedSource(value: JsonObject): DependencySource | null {
  const git = stringOf(value.git);
  if (git) return { kind: 'git', url: git.replace(/^git\+/, ''), ref: stringOf(value.ref) };
  const path = stringOf(value.path);
  if (path !== null) return { kind: 'path', path };
  const file = stringOf(value.file);
  if (file !== null) return isUrl(file) ? analyseUrl(file).source : { kind: 'path', path: file };
  return null;
}

function directNames(input: ExtractInput): Map<string, Set<string>> | null {
  const text = input.readFile(siblingPath(input.path, 'Pipfile'));
  return text === null ? null : pipfileDirectNames(text);
}

function sectionDirectSet(names: Map<string, Set<string>> | null, section: string): Set<string> {
  const category =
    section === 'default' ? 'packages' : section === 'develop' ? 'dev-packages' : section;
  return names?.get(category) ?? new Set();
}

/** From a truncated lock: the entries whose version was already written before the cut. */
function salvage(
  scanned: ReturnType<typeof scanEntries>,
  direct: Map<string, Set<string>> | null,
): ExtractedDependency[] {
  const deps: ExtractedDependency[] = [];
  for (const [key, raw] of scanned.versions) {
    const [section, name] = key.split('\u0000') as [string, string];
    const version = raw.replace(/^===?\s*/, '').trim();
    if (section === '_meta' || !isValidName(name) || version === '') continue;
    deps.push(
      makeDependency({
        name,
        version,
        resolution: 'resolved',
        scope: categoryScope(section),
        direct: sectionDirectSet(direct, section).has(normaliseName(name)),
        line: scanned.lines.get(key) ?? null,
      }),
    );
  }
  return dedupe(deps);
}

export function extractPipfileLock(input: ExtractInput): ExtractionResult {
  const direct = directNames(input);
  let doc: unknown;
  try {
    doc = JSON.parse(input.text);
  } catch (e) {
    const reason = e instanceof RangeError ? 'nested too deeply' : (e as Error).message;
    return {
      dependencies: salvage(scanEntries(input.text), direct),
      errors: [{ line: null, message: `Pipfile.lock is not valid JSON: ${reason}` }],
    };
  }
  if (!isTable(doc)) {
    return {
      dependencies: [],
      errors: [{ line: null, message: 'Pipfile.lock is not a JSON object' }],
    };
  }
  const deps: ExtractedDependency[] = [];
  const errors: ExtractionError[] = [];
  let lines = quickEntryLines(input.text);
  const expected = Object.entries(doc).reduce(
    (n, [section, v]) => n + (section !== '_meta' && isTable(v) ? Object.keys(v).length : 0),
    0,
  );
  if (lines.size < expected) lines = scanEntries(input.text).lines;
  for (const [section, entries] of Object.entries(doc)) {
    if (section === '_meta') continue;
    if (!isTable(entries)) {
      errors.push({ line: null, message: `section '${section}' is not an object` });
      continue;
    }
    const scope = categoryScope(section);
    const requested = sectionDirectSet(direct, section);
    for (const [name, value] of Object.entries(entries)) {
      const line = lines.get(`${section}\u0000${name}`) ?? null;
      if (!isValidName(name) || !isTable(value)) {
        errors.push({ line, message: `'${name}' in '${section}' is not a package entry` });
        continue;
      }
      const source = lockedSource(value);
      if (source?.kind === 'path' && (source.path === '.' || source.path === './')) continue; // the project itself
      const version = lockedVersion(value);
      if (version === null && source === null) {
        errors.push({ line, message: `'${name}' in '${section}' has no version` });
        continue;
      }
      deps.push(
        makeDependency({
          name,
          version,
          resolution: version === null ? 'unpinned' : 'resolved',
          scope,
          direct: requested.has(normaliseName(name)),
          line,
          source: source ?? undefined,
        }),
      );
    }
  }
  return { dependencies: dedupe(deps), errors };
}

export const pipfileLockExtractor: Extractor = {
  name: 'pypi/pipfile-lock',
  version: 1,
  kind: 'lockfile',
  matches: (path) => path.slice(path.lastIndexOf('/') + 1) === 'Pipfile.lock',
  extract: extractPipfileLock,
  describe: (input) => {
    const spec = /"pipfile-spec"\s*:\s*(\d+)/.exec(input.text.slice(0, 4000));
    return spec ? `Pipfile.lock (spec ${spec[1]})` : 'Pipfile.lock';
  },
};
