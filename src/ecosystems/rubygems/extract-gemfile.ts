import { buildPurl } from '../purl';
import { baseOf } from '../shared/tree-paths';
import type {
  DependencyScope,
  DependencySource,
  ExtractedDependency,
  ExtractInput,
  ExtractionError,
  ExtractionResult,
  Extractor,
} from '../types';
import { parseGemRequirements } from './versioning';

/**
 * A Gemfile is Ruby; it is never evaluated. This reads the declarative subset Bundler documents:
 * `gem 'name', 'req', ..., key: value` statements (possibly over several lines), and the blocks
 * `group … do`, `git … do`, `github … do`, `path … do`, `platforms … do`, `source … do`, tracked
 * with a stack that also counts `if`/`unless`/`case`/`begin`/`def`/… so that their `end` does not
 * close a group. Everything else (`source`, `ruby`, `gemspec`, `plugin`, `eval_gemfile`) is ignored.
 */

export interface GemDeclaration {
  name: string;
  requirements: string[];
  groups: string[];
  source: DependencySource;
  line: number;
}

/** A literal argument: a string, a symbol, an array of them, or something dynamic (null). */
type Literal = string | string[] | null;

interface Args {
  positional: Literal[];
  options: Map<string, Literal>;
}

const MAX_CONTINUATION_LINES = 50;

/** Removes a `#` comment that is outside quotes. Linear. */
export function stripComment(line: string): string {
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quote) {
      if (ch === '\\') i++;
      else if (ch === quote) quote = null;
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '#') return line.slice(0, i);
  }
  return line;
}

/**
 * One linear walk over Ruby text that tracks quotes and bracket depth, calling `atComma` for each
 * comma outside both; true when a quote or bracket is still open at the end.
 */
function walkRuby(text: string, atComma?: (index: number) => void): boolean {
  let depth = 0;
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quote) {
      if (ch === '\\') i++;
      else if (ch === quote) quote = null;
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '[' || ch === '(' || ch === '{') depth++;
    else if (ch === ']' || ch === ')' || ch === '}') depth--;
    else if (ch === ',' && depth === 0) atComma?.(i);
  }
  return depth > 0 || quote !== null;
}

/** Splits on commas outside quotes and brackets. Linear. */
function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let start = 0;
  walkRuby(text, (comma) => {
    parts.push(text.slice(start, comma));
    start = comma + 1;
  });
  parts.push(text.slice(start));
  return parts.map((p) => p.trim()).filter((p) => p.length > 0);
}

/** True while brackets or quotes are open: the statement continues on the next line. */
function isUnbalanced(text: string): boolean {
  return walkRuby(text);
}

function parseLiteral(text: string): Literal {
  const t = text.trim();
  const quoted = /^"([^"\\#]*)"$|^'([^'\\]*)'$/.exec(t);
  if (quoted) return quoted[1] ?? quoted[2] ?? '';
  const symbol = /^:([A-Za-z_][A-Za-z0-9_]*[?!]?)$|^:"([^"]*)"$/.exec(t);
  if (symbol) return symbol[1] ?? symbol[2] ?? '';
  const words = /^%[iwIW]\s*[[(]([^\])]*)[\])]$/.exec(t);
  if (words) return (words[1] ?? '').split(/\s+/).filter((w) => w.length > 0);
  if (t === 'true' || t === 'false' || t === 'nil') return t;
  if (t.startsWith('[') && t.endsWith(']')) {
    const items = splitTopLevel(t.slice(1, -1)).map(parseLiteral);
    return items.every((i) => typeof i === 'string') ? (items as string[]) : null;
  }
  return null;
}

/** Parses `'a', 'b', key: v, :key => v, "key" => v` into positional and keyword arguments. */
function parseArgs(text: string): Args {
  const positional: Literal[] = [];
  const options = new Map<string, Literal>();
  for (const part of splitTopLevel(text)) {
    const keyword = /^([A-Za-z_][A-Za-z0-9_]*):\s+(.*)$|^([A-Za-z_][A-Za-z0-9_]*):(?!:)(.*)$/s.exec(
      part,
    );
    const rocket = /^(?::([A-Za-z_][A-Za-z0-9_]*)|["']([^"']+)["'])\s*=>\s*(.*)$/s.exec(part);
    if (keyword)
      options.set(keyword[1] ?? keyword[3] ?? '', parseLiteral(keyword[2] ?? keyword[4] ?? ''));
    else if (rocket) options.set(rocket[1] ?? rocket[2] ?? '', parseLiteral(rocket[3] ?? ''));
    else positional.push(parseLiteral(part));
  }
  return { positional, options };
}

const asList = (value: Literal | undefined): string[] =>
  typeof value === 'string' ? [value] : Array.isArray(value) ? value : [];

/** The source that `git:` / `github:` / `gitlab:` / `path:` options (or block arguments) name. */
function sourceFrom(options: Map<string, Literal>, base: DependencySource): DependencySource {
  const str = (key: string) => {
    const value = options.get(key);
    return typeof value === 'string' ? value : undefined;
  };
  const ref = str('ref') ?? str('tag') ?? str('branch') ?? null;
  const git = str('git');
  if (git) return { kind: 'git', url: git, ref };
  const github = str('github');
  if (github) {
    // Bundler's shorthand: "rails" means "rails/rails".
    const repo = github.includes('/') ? github : `${github}/${github}`;
    return { kind: 'git', url: `https://github.com/${repo}.git`, ref };
  }
  const gitlab = str('gitlab');
  if (gitlab) return { kind: 'git', url: `https://gitlab.com/${gitlab}.git`, ref };
  const path = str('path');
  if (path) return { kind: 'path', path };
  return base;
}

interface Block {
  groups: string[];
  source: DependencySource | null;
}

const OPENER = /^(if|unless|case|begin|while|until|for|def|class|module)\b/;
const BLOCK_CALL =
  /^(group|groups|git|github|gitlab|path|platforms|platform|source|install_if|env)\b(.*?)\bdo(\s*\|[^|]*\|)?$/;

export interface ParsedGemfile {
  gems: GemDeclaration[];
  errors: ExtractionError[];
}

/** Reads the `gem` declarations of a Gemfile. Never throws; linear in the file size. */
export function parseGemfile(text: string): ParsedGemfile {
  const gems: GemDeclaration[] = [];
  const errors: ExtractionError[] = [];
  const stack: Block[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const lineNo = i + 1;
    let statement = stripComment(lines[i] as string).trim();
    if (statement.length === 0) continue;
    // `gem "x",` / `gem("x",` continue on the following lines.
    let extra = 0;
    while (
      (statement.endsWith(',') || statement.endsWith('\\') || isUnbalanced(statement)) &&
      i + 1 < lines.length &&
      extra < MAX_CONTINUATION_LINES
    ) {
      i++;
      extra++;
      statement = `${statement.replace(/\\$/, '')} ${stripComment(lines[i] as string).trim()}`;
    }

    if (statement === 'end' || /^end\b[^_?!]/.test(statement)) {
      if (stack.length === 0) errors.push({ line: lineNo, message: 'end without a block' });
      stack.pop();
      continue;
    }
    const block = BLOCK_CALL.exec(statement);
    if (block) {
      const keyword = block[1] as string;
      const args = parseArgs((block[2] ?? '').trim().replace(/^\(|\)$/g, ''));
      if (keyword === 'group' || keyword === 'groups') {
        stack.push({ groups: args.positional.flatMap(asList), source: null });
      } else if (
        keyword === 'git' ||
        keyword === 'github' ||
        keyword === 'gitlab' ||
        keyword === 'path'
      ) {
        const options = new Map(args.options);
        options.set(keyword, args.positional[0] ?? null);
        const source = sourceFrom(options, { kind: 'registry' });
        stack.push({ groups: [], source: source.kind === 'registry' ? null : source });
      } else {
        stack.push({ groups: [], source: null });
      }
      continue;
    }
    if (OPENER.test(statement) && !/\bend$/.test(statement)) {
      stack.push({ groups: [], source: null });
      continue;
    }
    if (/\bdo(\s*\|[^|]*\|)?$/.test(statement)) {
      stack.push({ groups: [], source: null });
      continue;
    }
    // A trailing modifier (`gem "x" if cond`) does not change the declaration.
    const unmodified = statement.replace(/\s+(if|unless)\s+.*$/s, '');
    const gem = /^gem\s*\((.*)\)$/s.exec(unmodified) ?? /^gem\s+(.*)$/s.exec(unmodified);
    if (!gem) continue;
    const body = gem[1] ?? '';
    const args = parseArgs(body);
    const [first, ...rest] = args.positional;
    if (typeof first !== 'string' || first.length === 0) {
      errors.push({ line: lineNo, message: 'gem name is not a literal string' });
      continue;
    }
    if (rest.some((r) => typeof r !== 'string')) {
      errors.push({ line: lineNo, message: `gem ${first}: requirement is not a literal string` });
      continue;
    }
    const requirements = rest as string[];
    if (requirements.some((r) => parseGemRequirements(r) === null)) {
      errors.push({
        line: lineNo,
        message: `gem ${first}: invalid requirement ${requirements.join(', ')}`,
      });
      continue;
    }
    const groups = [
      ...stack.flatMap((b) => b.groups),
      ...asList(args.options.get('group')),
      ...asList(args.options.get('groups')),
    ];
    let base: DependencySource = { kind: 'registry' };
    for (const b of stack) if (b.source) base = b.source;
    gems.push({
      name: first,
      requirements,
      groups,
      source: sourceFrom(args.options, base),
      line: lineNo,
    });
  }
  if (stack.length > 0) {
    errors.push({ line: null, message: `${stack.length} block(s) not closed by end (truncated?)` });
  }
  return { gems, errors };
}

/**
 * Bundler's default group is runtime. A gem only in `development` and/or `test` groups is
 * development (test when `test` is its only group); any other group (production, staging, custom)
 * is installed by default and counts as runtime.
 */
export function scopeOfGroups(groups: string[]): DependencyScope {
  if (groups.length === 0) return 'runtime';
  if (groups.some((g) => g !== 'development' && g !== 'test')) return 'runtime';
  return groups.includes('development') ? 'development' : 'test';
}

/**
 * Gemfile: direct dependencies as declared. A single exact requirement (`'1.2.3'` or `'= 1.2.3'`)
 * is `resolved`; other requirements are `declared` as written, joined by `, `; none is `unpinned`.
 */
export function extractGemfile(input: ExtractInput): ExtractionResult {
  try {
    const { gems, errors } = parseGemfile(input.text);
    const dependencies: ExtractedDependency[] = [];
    const seen = new Set<string>();
    for (const gem of gems) {
      const parsed = parseGemRequirements(gem.requirements.join(','));
      let version: string | null = null;
      let resolution: ExtractedDependency['resolution'] = 'unpinned';
      if (gem.requirements.length === 1 && parsed?.length === 1 && parsed[0]?.op === '=') {
        version = parsed[0].text;
        resolution = 'resolved';
      } else if (gem.requirements.length > 0) {
        version = gem.requirements.map((r) => r.trim()).join(', ');
        resolution = 'declared';
      }
      const scope = scopeOfGroups(gem.groups);
      const key = JSON.stringify([gem.name, version, scope, gem.source]);
      if (seen.has(key)) continue;
      seen.add(key);
      dependencies.push({
        name: gem.name,
        version,
        purl: buildPurl('gem', gem.name, resolution === 'resolved' ? version : null),
        scope,
        direct: true,
        resolution,
        line: gem.line,
        parents: [],
        source: gem.source,
      });
    }
    return { dependencies, errors };
  } catch (error) {
    return { dependencies: [], errors: [{ line: null, message: `Gemfile: ${String(error)}` }] };
  }
}

export const gemfileExtractor: Extractor = {
  name: 'rubygems/gemfile',
  version: 1,
  kind: 'manifest',
  matches: (path) => {
    const base = baseOf(path);
    return base === 'Gemfile' || base === 'gems.rb';
  },
  extract: extractGemfile,
};
