import { compositeKey } from '../../core/composite-key';
import { ownPackageFields } from '../dependency-list';
import { parseJson } from '../shared/json';
import { pathKey, scanJsonKeys } from '../shared/json-lines';
import { baseOf } from '../shared/tree-paths';
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
        else out.set(compositeKey(section, key), line);
      }
    }
    start = end + 1;
  }
  return out;
}

/** Marks the records of `version` values among the entry records of `scanEntries`. */
const VERSION_ID = '\u0001';

/**
 * Lines of the keys two levels deep (`"default": { "name": {`) and the entries' `version` strings,
 * from the shared structural scan, so any indentation (or none) works and a truncated lock keeps
 * what precedes the cut (JSON.parse gives nothing then).
 */
function scanEntries(text: string): { lines: Map<string, number>; versions: Map<string, string> } {
  const lines = new Map<string, number>();
  const versions = new Map<string, string>();
  const scan = scanJsonKeys(
    text,
    (path, key) => {
      if (path.length === 1) return pathKey(path[0]!, key);
      return path.length === 2 && key === 'version'
        ? VERSION_ID + pathKey(path[0]!, path[1]!)
        : null;
    },
    { maxDepth: 2 },
  );
  for (const record of scan.records) {
    if (!record.id.startsWith(VERSION_ID)) {
      lines.set(record.id, record.line);
      continue;
    }
    const version =
      record.start === -1
        ? null
        : /^"([^"\\\n]*)"/.exec(text.slice(record.start, record.start + 200));
    if (version) versions.set(record.id.slice(VERSION_ID.length), version[1]!);
  }
  return { lines, versions };
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

/**
 * `{"path": ".", "editable": true}`: the project itself, reported as its own package (scope
 * `self`); pipenv writes no version for it, so it is usually unpinned.
 */
function selfPackage(name: string, version: string | null, line: number | null) {
  return makeDependency(ownPackageFields(name, version, line));
}

export function extractPipfileLock(input: ExtractInput): ExtractionResult {
  const direct = directNames(input);
  const parsed = parseJson(input.text, 'Pipfile.lock');
  if (!parsed.ok) {
    return { dependencies: salvage(scanEntries(input.text), direct), errors: [parsed.error] };
  }
  const doc = parsed.value;
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
      const line = lines.get(compositeKey(section, name)) ?? null;
      if (!isValidName(name) || !isTable(value)) {
        errors.push({ line, message: `'${name}' in '${section}' is not a package entry` });
        continue;
      }
      const source = lockedSource(value);
      const version = lockedVersion(value);
      if (source?.kind === 'path' && (source.path === '.' || source.path === './')) {
        deps.push(selfPackage(name, version, line));
        continue;
      }
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
  version: 2,
  kind: 'lockfile',
  matches: (path) => baseOf(path) === 'Pipfile.lock',
  extract: extractPipfileLock,
  describe: (input) => {
    const spec = /"pipfile-spec"\s*:\s*(\d+)/.exec(input.text.slice(0, 4000));
    return spec ? `Pipfile.lock (spec ${spec[1]})` : 'Pipfile.lock';
  },
};
