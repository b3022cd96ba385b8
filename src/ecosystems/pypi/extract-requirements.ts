import { parseToml } from '../shared/toml';
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
import {
  dedupe,
  dirOf,
  groupScope,
  isTable,
  makeDependency,
  normaliseName,
  resolveInTree,
  stringOf,
} from './common';
import {
  isUrl,
  looksLikePath,
  parseRequirement,
  referenceInfo,
  requirementEntry,
  type VersionInfo,
} from './pep508';

/**
 * pip requirements files: pins, ranges, extras, markers, hashes, continuations, `-r`/`-c`
 * includes (inside the tree only), editable, VCS, URL and local path lines. Options such as
 * `--index-url` are ignored and nothing is ever fetched.
 *
 * The contract has no field for "which file", so dependencies that come from an included file
 * carry the line of the `-r` directive in the extracted file (the place a reader must look), and
 * errors inside included files name the included path and line in their message.
 */

const MAX_INCLUDE_DEPTH = 16;

interface LogicalLine {
  /** Requirement or option text, comment removed and trimmed. */
  content: string;
  /** Text after the comment `#`, or null. */
  comment: string | null;
  /** The physical line starts with whitespace (pip-compile indents its `# via` notes). */
  indented: boolean;
  line: number;
}

/** pip's join_lines + ignore_comments: `\` continues a line unless the line is a comment. */
export function logicalLines(text: string): LogicalLine[] {
  const physical = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const out: LogicalLine[] = [];
  let pending: string[] = [];
  let pendingLine = 0;
  const emit = (raw: string, line: number) => {
    let hash = -1;
    for (let i = 0; i < raw.length; i++) {
      if (raw[i] === '#' && (i === 0 || raw[i - 1] === ' ' || raw[i - 1] === '\t')) {
        hash = i;
        break;
      }
    }
    const content = (hash === -1 ? raw : raw.slice(0, hash)).trim();
    out.push({
      content,
      comment: hash === -1 ? null : raw.slice(hash + 1),
      indented: /^\s/.test(raw),
      line,
    });
  };
  for (let i = 0; i < physical.length; i++) {
    const raw = physical[i]!;
    const isComment = /^\s*#/.test(raw);
    if (raw.endsWith('\\') && !isComment) {
      if (pending.length === 0) pendingLine = i + 1;
      pending.push(raw.slice(0, -1));
      continue;
    }
    if (pending.length > 0) {
      // A comment line ends a continuation; pip then drops it as a comment.
      if (isComment) {
        emit(pending.join(''), pendingLine);
        emit(raw, i + 1);
      } else {
        pending.push(raw);
        emit(pending.join(''), pendingLine);
      }
      pending = [];
      continue;
    }
    emit(raw, i + 1);
  }
  if (pending.length > 0) emit(pending.join(''), pendingLine);
  return out;
}

/** The scope a requirements file implies by its name (`requirements-dev.txt` → development). */
export function fileScope(path: string): DependencyScope {
  const base = baseOf(path).replace(/\.(txt|in)$/i, '');
  return groupScope(base, 'runtime');
}

interface Constraint {
  info: VersionInfo;
}

interface State {
  input: ExtractInput;
  deps: ExtractedDependency[];
  errors: ExtractionError[];
  constraints: Map<string, Constraint[]>;
  visited: Set<string>;
}

interface FileFrame {
  path: string;
  text: string;
  mode: 'requirements' | 'constraints';
  /** Line of the outermost `-r`/`-c` in the extracted file; null for the extracted file itself. */
  topLine: number | null;
  stack: string[];
}

function report(state: State, frame: FileFrame, line: number, message: string): void {
  if (frame.topLine === null) state.errors.push({ line, message });
  else state.errors.push({ line: frame.topLine, message: `${frame.path}:${line}: ${message}` });
}

const OPTION = /^(--requirement|--constraint|--editable|-r|-c|-e)(.*)$/;

interface Entry {
  name: string;
  info: VersionInfo;
  source: DependencySource;
}

type EntryResult =
  | { kind: 'entry'; entry: Entry }
  | { kind: 'skip' }
  | { kind: 'error'; message: string };

/** Splits `url ; marker`: a URL cannot contain spaces, so the first space ends it. */
function stripUrlMarker(text: string): { ref: string; ok: boolean } {
  const space = text.search(/\s/);
  if (space === -1) return { ref: text, ok: true };
  const after = text.slice(space).trim();
  return { ref: text.slice(0, space), ok: after === '' || after.startsWith(';') };
}

/** Reads the name of a local project from its pyproject.toml or setup.cfg, inside the tree. */
function localProjectName(input: ExtractInput, dir: string): string | null {
  const pyproject = input.readFile(dir === '' ? 'pyproject.toml' : `${dir}/pyproject.toml`);
  if (pyproject !== null) {
    const parsed = parseToml(pyproject, 'pyproject.toml');
    if (parsed.ok) {
      const project = parsed.value.project;
      const poetry = isTable(parsed.value.tool) ? parsed.value.tool.poetry : undefined;
      const name =
        (isTable(project) ? stringOf(project.name) : null) ??
        (isTable(poetry) ? stringOf(poetry.name) : null);
      if (name) return name;
    }
  }
  const setupCfg = input.readFile(dir === '' ? 'setup.cfg' : `${dir}/setup.cfg`);
  if (setupCfg !== null) {
    let inMetadata = false;
    for (const line of setupCfg.split('\n')) {
      const trimmed = line.trim();
      if (trimmed.startsWith('[')) inMetadata = trimmed === '[metadata]';
      const name = inMetadata ? /^name\s*=\s*([A-Za-z0-9._-]+)$/.exec(trimmed) : null;
      if (name) return name[1]!;
    }
  }
  return null;
}

/** One requirement (the text of a line or of `-e`), without its per-line options. */
function parseEntry(state: State, frame: FileFrame, text: string): EntryResult {
  if (isUrl(text) || (looksLikePath(text) && !parseRequirement(text).ok)) {
    const { ref, ok } = stripUrlMarker(text);
    if (!ok) return { kind: 'error', message: `unexpected text after '${ref}'` };
    const info = referenceInfo(ref);
    if (info.source.kind === 'path' && !info.name) {
      // A bare local directory: the project itself is no dependency; others name themselves.
      const fileDir = dirOf(frame.path);
      const candidates = [
        resolveInTree(fileDir, info.source.path),
        resolveInTree('', info.source.path),
      ];
      if (candidates.some((c) => c === '' || c === fileDir)) return { kind: 'skip' };
      for (const candidate of candidates) {
        const name = candidate === null ? null : localProjectName(state.input, candidate);
        if (name) {
          return {
            kind: 'entry',
            entry: { name, info: { version: null, resolution: 'unpinned' }, source: info.source },
          };
        }
      }
    }
    if (!info.name) {
      return { kind: 'error', message: `cannot tell the package name of '${ref}' (add #egg=name)` };
    }
    const version = info.source.kind === 'git' ? null : info.version;
    return {
      kind: 'entry',
      entry: {
        name: info.name,
        info: version
          ? { version, resolution: 'resolved' }
          : { version: null, resolution: 'unpinned' },
        source: info.source,
      },
    };
  }
  const parsed = parseRequirement(text);
  if (!parsed.ok) return { kind: 'error', message: parsed.message };
  const { info, source } = requirementEntry(parsed.value);
  return { kind: 'entry', entry: { name: parsed.value.name, info, source } };
}

/** pip's break_args_options: the requirement ends at the first token starting with `-`. */
function requirementPart(content: string): string {
  const tokens = content.split(/\s+/);
  const args: string[] = [];
  for (const token of tokens) {
    if (token.startsWith('-')) break;
    args.push(token);
  }
  return args.join(' ');
}

function include(
  state: State,
  frame: FileFrame,
  line: number,
  arg: string,
  mode: FileFrame['mode'],
) {
  const flag = mode === 'constraints' ? '-c' : '-r';
  if (arg === '') {
    report(state, frame, line, `missing file name after ${flag}`);
    return;
  }
  if (isUrl(arg)) {
    report(state, frame, line, `remote include '${arg}' is not fetched`);
    return;
  }
  const target = resolveInTree(dirOf(frame.path), arg);
  if (target === null) {
    report(state, frame, line, `include '${arg}' points outside the scanned tree`);
    return;
  }
  if (frame.stack.includes(target)) {
    report(state, frame, line, `include cycle: ${[...frame.stack, target].join(' -> ')}`);
    return;
  }
  if (frame.stack.length >= MAX_INCLUDE_DEPTH) {
    report(state, frame, line, `includes nested deeper than ${MAX_INCLUDE_DEPTH}`);
    return;
  }
  const key = `${mode}:${target}`;
  if (state.visited.has(key)) return;
  const text = state.input.readFile(target);
  if (text === null) {
    report(state, frame, line, `included file '${target}' not found`);
    return;
  }
  state.visited.add(key);
  walk(state, {
    path: target,
    text,
    mode,
    topLine: frame.topLine ?? line,
    stack: [...frame.stack, target],
  });
}

/** pip-compile `# via` annotations: names are parents; `-r`/`-c` or `(pyproject.toml)` mean direct. */
class ViaTracker {
  private dep: ExtractedDependency | null = null;
  private inBlock = false;
  private seen = false;

  attach(dep: ExtractedDependency | null, inlineComment: string | null): void {
    this.dep = dep;
    this.inBlock = false;
    this.seen = false;
    const inline = inlineComment === null ? null : /^\s*via\s+(.+)$/.exec(inlineComment);
    if (inline) for (const item of inline[1]!.split(',')) this.item(item);
  }

  comment(text: string): void {
    if (!this.dep) return;
    const via = /^\s*via\b(.*)$/.exec(text);
    if (via) {
      this.inBlock = true;
      if (via[1]!.trim() !== '') this.item(via[1]!);
      else this.mark();
      return;
    }
    const continued = /^\s{2,}(\S.*)$/.exec(text);
    if (this.inBlock && continued) this.item(continued[1]!);
    else this.end();
  }

  end(): void {
    this.dep = null;
    this.inBlock = false;
  }

  private mark(): void {
    if (this.dep && !this.seen) {
      this.seen = true;
      this.dep.direct = false;
    }
  }

  private item(raw: string): void {
    const item = raw.trim();
    if (!this.dep || item === '') return;
    this.mark();
    if (/^-[rc]\b|^--(requirement|constraint)\b|\)$/.test(item)) {
      this.dep.direct = true;
      return;
    }
    const name = normaliseName(item);
    if (/^[a-z0-9-]+$/.test(name) && !this.dep.parents.includes(name)) this.dep.parents.push(name);
  }
}

function isCompiled(text: string): boolean {
  return /autogenerated by pip-compile|uv pip compile/i.test(text.slice(0, 2000));
}

function walk(state: State, frame: FileFrame): void {
  const scope = fileScope(frame.path);
  const via = new ViaTracker();
  const compiled = isCompiled(frame.text);
  for (const logical of logicalLines(frame.text)) {
    const { content, line } = logical;
    if (content === '') {
      // pip-compile indents its annotations; a flush-left comment is the author's own.
      if (logical.comment !== null && logical.indented) via.comment(logical.comment);
      else via.end();
      continue;
    }
    let requirementText: string;
    if (content.startsWith('-')) {
      via.end();
      const option = OPTION.exec(content);
      if (!option) continue; // --index-url, --hash-only lines and the like: ignored, never fetched
      const [, flag, restRaw] = option;
      const long = flag!.startsWith('--');
      if (long && !/^[=\s]/.test(restRaw!)) continue;
      const rest = restRaw!.replace(/^\s*=?\s*/, '');
      if (flag === '-r' || flag === '--requirement') {
        include(state, frame, line, rest.split(/\s+/)[0] ?? '', 'requirements');
        continue;
      }
      if (flag === '-c' || flag === '--constraint') {
        include(state, frame, line, rest.split(/\s+/)[0] ?? '', 'constraints');
        continue;
      }
      requirementText = requirementPart(rest);
      if (requirementText === '') {
        report(state, frame, line, 'missing requirement after -e');
        continue;
      }
    } else {
      requirementText = requirementPart(content);
    }
    const result = parseEntry(state, frame, requirementText);
    if (result.kind === 'error') {
      via.end();
      report(state, frame, line, result.message);
      continue;
    }
    if (result.kind === 'skip') {
      via.end();
      continue;
    }
    const { entry } = result;
    if (frame.mode === 'constraints') {
      via.end();
      if (entry.source.kind !== 'registry') continue; // pip refuses these as constraints anyway
      const key = normaliseName(entry.name);
      const list = state.constraints.get(key) ?? [];
      list.push({ info: entry.info });
      state.constraints.set(key, list);
      continue;
    }
    const dep = makeDependency({
      name: entry.name,
      version: entry.info.version,
      resolution: entry.info.resolution,
      scope,
      direct: true,
      line: frame.topLine ?? line,
      source: entry.source,
    });
    state.deps.push(dep);
    via.attach(dep, compiled ? logical.comment : null);
  }
}

/** Constraints narrow what the requirements name; they never add a package. */
function applyConstraints(state: State): ExtractedDependency[] {
  return state.deps.map((dep) => {
    const constraints = state.constraints.get(dep.name);
    if (!constraints || dep.source.kind !== 'registry' || dep.resolution === 'resolved') return dep;
    let info: VersionInfo = { version: dep.version, resolution: dep.resolution };
    for (const constraint of constraints) {
      if (info.resolution === 'resolved') break;
      if (constraint.info.resolution === 'resolved') info = constraint.info;
      else if (constraint.info.resolution === 'declared') {
        info = {
          version: info.version
            ? `${info.version},${constraint.info.version}`
            : constraint.info.version,
          resolution: 'declared',
        };
      }
    }
    if (info.version === dep.version && info.resolution === dep.resolution) return dep;
    return makeDependency({ ...dep, version: info.version, resolution: info.resolution });
  });
}

export function extractRequirements(input: ExtractInput): ExtractionResult {
  const state: State = {
    input,
    deps: [],
    errors: [],
    constraints: new Map(),
    visited: new Set([`requirements:${input.path}`]),
  };
  try {
    walk(state, {
      path: input.path,
      text: input.text,
      mode: 'requirements',
      topLine: null,
      stack: [input.path],
    });
    return { dependencies: dedupe(applyConstraints(state)), errors: state.errors };
  } catch (e) {
    // Defensive: a parser bug must not take the whole scan down.
    return {
      dependencies: dedupe(state.deps),
      errors: [
        ...state.errors,
        { line: null, message: `requirements file could not be read: ${String(e)}` },
      ],
    };
  }
}

const REQUIREMENTS_NAME = /^(?:requirements[^/]*\.(?:txt|in)|[^/]*[-_]requirements\.txt)$/i;

export const requirementsExtractor: Extractor = {
  name: 'pypi/requirements',
  version: 1,
  kind: 'manifest',
  matches: (path) => {
    const base = baseOf(path);
    if (REQUIREMENTS_NAME.test(base)) return true;
    const parent = dirOf(path);
    return /(?:^|\/)requirements$/i.test(parent) && /\.(?:txt|in)$/i.test(base);
  },
  extract: extractRequirements,
  describe: (input) => (isCompiled(input.text) ? 'requirements (pip-compile)' : 'pip requirements'),
};
