import { ownPackage, ownPackageFields } from '../dependency-list';
import { buildPurl } from '../purl';
import { baseOf } from '../shared/tree-paths';
import type {
  DependencySource,
  ExtractedDependency,
  ExtractInput,
  ExtractionError,
  ExtractionResult,
  Extractor,
} from '../types';
import { parseGoVersion } from './versioning';

/** One directive line of a go.mod, after the verb (`require`, `replace`, ...) is resolved. */
export interface GoModLine {
  verb: string;
  /** Tokens after the verb (quoted paths unquoted; `=>`, `[`, `]`, `,` kept as tokens). */
  args: string[];
  /** Text of the trailing `//` comment without the slashes, or null. */
  comment: string | null;
  line: number;
}

export interface GoModFile {
  module: string | null;
  go: string | null;
  lines: GoModLine[];
  errors: ExtractionError[];
}

/** Verbs Go accepts in go.mod; those marked true may open a `verb ( ... )` block. */
const VERBS: Record<string, boolean> = {
  module: false,
  go: false,
  toolchain: false,
  godebug: true,
  require: true,
  exclude: true,
  replace: true,
  retract: true,
  tool: true,
  ignore: true,
};

/**
 * Splits one line into tokens and its `//` comment, as x/mod/modfile's lexer does: `"…"` and `` `…` ``
 * are strings, `(`, `)`, `[`, `]`, `,` and `=>` are tokens on their own. Returns null on an
 * unterminated string. Linear in the line length.
 */
export function tokenizeGoModLine(
  text: string,
): { tokens: string[]; comment: string | null } | null {
  const tokens: string[] = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    const ch = text[i] as string;
    if (ch === ' ' || ch === '\t' || ch === '\r') {
      i++;
    } else if (ch === '/' && text[i + 1] === '/') {
      return { tokens, comment: text.slice(i + 2).trim() };
    } else if (ch === '(' || ch === ')' || ch === '[' || ch === ']' || ch === ',') {
      tokens.push(ch);
      i++;
    } else if (ch === '=' && text[i + 1] === '>') {
      tokens.push('=>');
      i += 2;
    } else if (ch === '`') {
      // Raw string: no escapes.
      const end = text.indexOf('`', i + 1);
      if (end < 0) return null;
      tokens.push(text.slice(i + 1, end));
      i = end + 1;
    } else if (ch === '"') {
      // Module paths never need more than \" and \\; other escapes keep the escaped character.
      const parts: string[] = [];
      let j = i + 1;
      let start = j;
      while (j < n && text[j] !== '"') {
        if (text[j] === '\\' && j + 1 < n) {
          parts.push(text.slice(start, j));
          start = j + 1;
          j += 2;
        } else j++;
      }
      if (j >= n) return null;
      parts.push(text.slice(start, j));
      tokens.push(parts.join(''));
      i = j + 1;
    } else {
      let j = i;
      while (j < n) {
        const c = text[j] as string;
        if (c === ' ' || c === '\t' || c === '\r' || c === '(' || c === ')' || c === '[') break;
        if (c === ']' || c === ',' || c === '"' || c === '`') break;
        if (c === '/' && text[j + 1] === '/') break;
        if (c === '=' && text[j + 1] === '>') break;
        j++;
      }
      tokens.push(text.slice(i, j));
      i = j;
    }
  }
  return { tokens, comment: null };
}

/** Parses go.mod into directive lines, block by block. Never throws. */
export function parseGoMod(text: string): GoModFile {
  const result: GoModFile = { module: null, go: null, lines: [], errors: [] };
  const rows = text.split('\n');
  let block: { verb: string; line: number } | null = null;
  for (let index = 0; index < rows.length; index++) {
    const lineNo = index + 1;
    const lexed = tokenizeGoModLine(rows[index] as string);
    if (!lexed) {
      result.errors.push({ line: lineNo, message: 'unterminated quoted string' });
      continue;
    }
    const { tokens, comment } = lexed;
    if (tokens.length === 0) continue;
    if (block) {
      if (tokens[0] === ')') {
        block = null;
        if (tokens.length > 1) result.errors.push({ line: lineNo, message: 'text after )' });
        continue;
      }
      result.lines.push({ verb: block.verb, args: tokens, comment, line: lineNo });
      continue;
    }
    const verb = tokens[0] as string;
    const blockable = VERBS[verb];
    if (blockable === undefined) {
      result.errors.push({ line: lineNo, message: `unknown directive: ${verb}` });
      continue;
    }
    if (tokens[1] === '(') {
      if (!blockable) {
        result.errors.push({ line: lineNo, message: `${verb} does not take a block` });
        continue;
      }
      // `require ()` on one line is an empty block.
      if (tokens[2] === ')') continue;
      if (tokens.length > 2) {
        result.errors.push({ line: lineNo, message: `text after ${verb} (` });
        continue;
      }
      block = { verb, line: lineNo };
      continue;
    }
    const args = tokens.slice(1);
    if (verb === 'module') result.module = args[0] ?? null;
    else if (verb === 'go') result.go = args[0] ?? null;
    result.lines.push({ verb, args, comment, line: lineNo });
  }
  if (block) {
    result.errors.push({
      line: null,
      message: `file ends inside the ${block.verb} block opened on line ${block.line} (truncated?)`,
    });
  }
  return result;
}

/** x/mod/modfile.IsDirectoryPath: a replacement that names a directory, not a module. */
export function isLocalPath(path: string): boolean {
  return (
    path === '.' ||
    path === '..' ||
    path.startsWith('./') ||
    path.startsWith('../') ||
    path.startsWith('/') ||
    path.startsWith('.\\') ||
    path.startsWith('..\\') ||
    /^[A-Za-z]:[\\/]/.test(path)
  );
}

/** Go's isIndirect: the comment is exactly `indirect` or starts with `indirect;`. */
function isIndirect(comment: string | null): boolean {
  return comment !== null && (comment === 'indirect' || comment.startsWith('indirect;'));
}

interface Replacement {
  newPath: string;
  newVersion: string | null;
}

interface Require {
  path: string;
  version: string;
  indirect: boolean;
  line: number;
}

function validModulePath(path: string): boolean {
  return path.length > 0 && !/\s/.test(path) && !path.startsWith('-');
}

/**
 * go.mod is both manifest and lock: since Go 1.17 it lists every module of the build list, and
 * minimal version selection builds the main module with exactly the versions required there, so
 * every `require` is `resolved`. `// indirect` marks transitive modules. `replace`: see
 * `requireEntries`.
 * `exclude` and `retract` name versions that are not in the build list; `go`, `toolchain`,
 * `godebug`, `tool` and `ignore` are parsed and not reported.
 */
export function extractGoMod(input: ExtractInput): ExtractionResult {
  try {
    const parsed = parseGoMod(input.text);
    const errors = [...parsed.errors];
    const requires: Require[] = [];
    const exact = new Map<string, Replacement>();
    const wildcard = new Map<string, Replacement>();
    for (const entry of parsed.lines) {
      const { verb, args, line } = entry;
      if (verb === 'require' || verb === 'exclude') {
        const [path, version] = args;
        if (args.length !== 2 || !path || !version) {
          errors.push({ line, message: `${verb} needs a module path and a version` });
        } else if (!validModulePath(path)) {
          errors.push({ line, message: `invalid module path ${JSON.stringify(path)}` });
        } else if (!parseGoVersion(version) || !version.startsWith('v')) {
          errors.push({ line, message: `invalid version ${JSON.stringify(version)} for ${path}` });
        } else if (verb === 'require') {
          requires.push({ path, version, indirect: isIndirect(entry.comment), line });
        }
      } else if (verb === 'replace') {
        const arrow = args.indexOf('=>');
        const left = arrow >= 0 ? args.slice(0, arrow) : [];
        const right = arrow >= 0 ? args.slice(arrow + 1) : [];
        const [oldPath, oldVersion] = left;
        const [newPath, newVersion] = right;
        if (!oldPath || !newPath || left.length > 2 || right.length > 2) {
          errors.push({ line, message: 'replace needs "old [version] => new [version]"' });
        } else if (oldVersion !== undefined && !parseGoVersion(oldVersion)) {
          errors.push({ line, message: `invalid version ${JSON.stringify(oldVersion)}` });
        } else if (newVersion === undefined && !isLocalPath(newPath)) {
          errors.push({ line, message: `replacement module ${newPath} needs a version` });
        } else if (newVersion !== undefined && !parseGoVersion(newVersion)) {
          errors.push({ line, message: `invalid version ${JSON.stringify(newVersion)}` });
        } else {
          const replacement = { newPath, newVersion: newVersion ?? null };
          if (oldVersion === undefined) wildcard.set(oldPath, replacement);
          else exact.set(`${oldPath}@${oldVersion}`, replacement);
        }
      } else if (verb === 'module' || verb === 'go' || verb === 'toolchain') {
        if (args.length !== 1) errors.push({ line, message: `${verb} takes one argument` });
      }
      // retract, godebug, tool, ignore: valid directives that say nothing about dependencies.
    }

    const dependencies: ExtractedDependency[] = [];
    const self = moduleSelf(parsed);
    if (self) dependencies.push(self);
    const seen = new Set<string>();
    for (const req of requires) {
      // A version-specific replace wins over a replace of every version (cmd/go's rule).
      const replacement = exact.get(`${req.path}@${req.version}`) ?? wildcard.get(req.path);
      for (const entry of requireEntries(req, replacement)) {
        const key = `${entry.name}@${entry.version ?? ''}@${entry.source.kind}`;
        if (seen.has(key)) continue;
        seen.add(key);
        dependencies.push({
          ...entry,
          purl: buildPurl('golang', entry.name, entry.version),
          scope: 'runtime',
          direct: !req.indirect,
          resolution: entry.version === null ? 'unpinned' : 'resolved',
          line: req.line,
          parents: [],
        });
      }
    }
    // Parse errors and entry errors come from two passes: whole-file errors first, then file order.
    errors.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
    return { dependencies, errors };
  } catch (error) {
    return { dependencies: [], errors: [{ line: null, message: `go.mod: ${String(error)}` }] };
  }
}

type RequireEntry = { name: string; version: string | null; source: DependencySource };

/**
 * What one `require` reports. Unreplaced: the module at its version. Replaced by a module
 * (`old => new v`): the replacement, which is what gets built, and the original at the required
 * version with a `replaced` source, so the original module's advisories are not silently lost (a
 * fork usually carries its upstream's flaws); a replacement with the same path only changes the
 * version, so the original version, never built, is not reported. Replaced by a directory: the
 * original at the required version with a `replaced` source naming the directory (the code is a
 * local copy whose version nobody states).
 */
function requireEntries(req: Require, replacement: Replacement | undefined): RequireEntry[] {
  const original = { name: req.path, version: req.version };
  if (!replacement) return [{ ...original, source: { kind: 'registry' } }];
  const replaced: RequireEntry = {
    ...original,
    source: { kind: 'replaced', by: replacement.newPath, version: replacement.newVersion },
  };
  if (replacement.newVersion === null) return [replaced];
  const built: RequireEntry = {
    name: replacement.newPath,
    version: replacement.newVersion,
    source: { kind: 'registry' },
  };
  return replacement.newPath === req.path ? [built] : [built, replaced];
}

/**
 * The `module` line: the project itself (scope `self`). go.mod never records the module's own
 * version (a release is a tag), so it is unpinned.
 */
function moduleSelf(parsed: GoModFile): ExtractedDependency | null {
  const entry = parsed.lines.find((l) => l.verb === 'module' && l.args.length === 1);
  const path = entry?.args[0];
  if (!entry || !path || !validModulePath(path)) return null;
  return ownPackage(ownPackageFields(path, null, entry.line), buildPurl('golang', path, null));
}

export const goModExtractor: Extractor = {
  name: 'go/go-mod',
  version: 3,
  // go.mod pins the whole build list (see extractGoMod), so it is the lockfile of a Go module.
  kind: 'lockfile',
  matches: (path) => baseOf(path) === 'go.mod',
  extract: extractGoMod,
  describe: (input) => {
    const parsed = parseGoMod(input.text);
    return parsed.go ? `go.mod (go ${parsed.go})` : 'go.mod';
  },
};
