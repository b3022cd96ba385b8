import type { DependencySource, Resolution } from '../types';
import { isValidName, normaliseName } from './common';
import { isValid } from './versioning';

/** A PEP 508 requirement (`name[extras] (specifier) ; marker` or `name[extras] @ url ; marker`). */
export interface Requirement {
  name: string;
  extras: string[];
  /** Specifier with whitespace and enclosing parentheses removed; `''` when there is none. */
  specifier: string;
  url: string | null;
  marker: string | null;
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

const NAME_START = /^[A-Za-z0-9][A-Za-z0-9._-]*/;
const CLAUSE = /^(===|==|!=|~=|<=|>=|<|>)([^<>=!~].*)$/;

/** Checks every clause of a specifier set; returns the problem or null. */
export function specifierProblem(specifier: string): string | null {
  for (const clause of specifier.split(',')) {
    const match = CLAUSE.exec(clause);
    if (!match) return `invalid version specifier '${specifier}'`;
    const [, operator, version] = match;
    if (operator === '===') continue;
    const wildcard = (operator === '==' || operator === '!=') && version!.endsWith('.*');
    const base = wildcard ? version!.slice(0, -2) : version!;
    if (!isValid(base)) return `invalid version '${version}' in specifier '${specifier}'`;
  }
  return null;
}

/** Parses one requirement string. Linear scans only: long hostile lines cannot backtrack. */
export function parseRequirement(text: string): Parsed<Requirement> {
  const s = text.trim();
  const nameMatch = NAME_START.exec(s);
  if (!nameMatch || !isValidName(nameMatch[0])) {
    return { ok: false, message: `not a requirement: '${clip(s)}'` };
  }
  const name = nameMatch[0];
  let rest = s.slice(name.length).trimStart();
  let extras: string[] = [];
  if (rest.startsWith('[')) {
    const close = rest.indexOf(']');
    if (close === -1) return { ok: false, message: `unclosed extras in '${clip(s)}'` };
    extras = rest
      .slice(1, close)
      .split(',')
      .map((e) => e.trim())
      .filter((e) => e !== '');
    rest = rest.slice(close + 1).trimStart();
  }
  if (rest.startsWith('@')) {
    const urlAndMarker = rest.slice(1).trimStart();
    const space = urlAndMarker.search(/\s/);
    const url = space === -1 ? urlAndMarker : urlAndMarker.slice(0, space);
    const after = space === -1 ? '' : urlAndMarker.slice(space).trim();
    if (url === '') return { ok: false, message: `missing URL after '@' in '${clip(s)}'` };
    if (after !== '' && !after.startsWith(';')) {
      return { ok: false, message: `unexpected text after URL in '${clip(s)}'` };
    }
    const marker = after === '' ? null : after.slice(1).trim();
    return { ok: true, value: { name, extras, specifier: '', url, marker } };
  }
  if (rest !== '' && !/^[<>=!~(;]/.test(rest)) {
    return { ok: false, message: `not a requirement: '${clip(s)}'` };
  }
  const semicolon = rest.indexOf(';');
  let specifier = (semicolon === -1 ? rest : rest.slice(0, semicolon)).replace(/\s+/g, '');
  const marker = semicolon === -1 ? null : rest.slice(semicolon + 1).trim();
  if (specifier.startsWith('(') && specifier.endsWith(')')) specifier = specifier.slice(1, -1);
  if (specifier !== '') {
    const problem = specifierProblem(specifier);
    if (problem) return { ok: false, message: problem };
  }
  return { ok: true, value: { name, extras, specifier, url: null, marker } };
}

export interface VersionInfo {
  version: string | null;
  resolution: Resolution;
}

/** `==1.2.3` / `===1.2.3` alone are exact pins (resolved); other specifiers are declared ranges. */
export function classifySpecifier(specifier: string): VersionInfo {
  if (specifier === '' || specifier === '*') return { version: null, resolution: 'unpinned' };
  if (!specifier.includes(',')) {
    const exact = /^===?(.+)$/.exec(specifier);
    if (exact && !exact[1]!.endsWith('*')) return { version: exact[1]!, resolution: 'resolved' };
  }
  return { version: specifier, resolution: 'declared' };
}

export interface UrlInfo {
  source: DependencySource;
  /** Name from `#egg=` or from a wheel/sdist file name. */
  name: string | null;
  /** Exact version read from a wheel/sdist file name. */
  version: string | null;
}

const ARCHIVE = /\.(?:tar\.gz|tar\.bz2|tar\.xz|tgz|tbz|zip|tar)$/i;

/** `name-1.0-py3-none-any.whl` and `name-1.0.tar.gz` carry a name and an exact version. */
export function archiveNameVersion(fileName: string): { name: string; version: string } | null {
  if (fileName.toLowerCase().endsWith('.whl')) {
    const parts = fileName.slice(0, -4).split('-');
    if (parts.length >= 5 && isValidName(parts[0]!) && isValid(parts[1]!)) {
      return { name: parts[0]!, version: parts[1]! };
    }
    return null;
  }
  const archive = ARCHIVE.exec(fileName);
  if (!archive) return null;
  const stem = fileName.slice(0, archive.index);
  for (let i = stem.length - 1; i > 0; i--) {
    if (stem[i] === '-' && /[0-9]/.test(stem[i + 1] ?? '')) {
      const name = stem.slice(0, i);
      const version = stem.slice(i + 1);
      if (isValidName(name) && isValid(version)) return { name, version };
      return null;
    }
  }
  return null;
}

function eggName(fragment: string): string | null {
  for (const part of fragment.split('&')) {
    if (part.startsWith('egg=')) {
      const egg = part.slice(4).replace(/\[.*$/, '').trim();
      return isValidName(egg) ? egg : null;
    }
  }
  return null;
}

/** True for `scheme://`, `git+...`, `file:` references (as opposed to names and local paths). */
export function isUrl(text: string): boolean {
  return (
    /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ||
    /^(?:git|hg|svn|bzr)\+/i.test(text) ||
    /^file:/i.test(text)
  );
}

/** Splits a URL into its source kind, the `#egg=` name and any version its file name carries. */
export function analyseUrl(raw: string): UrlInfo {
  const hash = raw.indexOf('#');
  const fragment = hash === -1 ? '' : raw.slice(hash + 1);
  const withoutFragment = hash === -1 ? raw : raw.slice(0, hash);
  const name = eggName(fragment);
  const vcs = /^(git|hg|svn|bzr)\+/i.exec(withoutFragment);
  if (vcs) {
    const kind = vcs[1]!.toLowerCase();
    if (kind !== 'git') return { source: { kind: 'url', url: raw }, name, version: null };
    const url = withoutFragment.slice(4);
    const scheme = url.indexOf('://');
    const pathStart = scheme === -1 ? 0 : url.indexOf('/', scheme + 3);
    const at = pathStart === -1 ? -1 : url.lastIndexOf('@');
    if (at > pathStart && pathStart !== -1) {
      return {
        source: { kind: 'git', url: url.slice(0, at), ref: url.slice(at + 1) },
        name,
        version: null,
      };
    }
    return { source: { kind: 'git', url, ref: null }, name, version: null };
  }
  const pathPart = withoutFragment.split('?')[0]!;
  const fileName = pathPart.slice(pathPart.lastIndexOf('/') + 1);
  const archive = archiveNameVersion(decodeURIComponentSafe(fileName));
  const source: DependencySource = /^file:/i.test(withoutFragment)
    ? { kind: 'path', path: withoutFragment.replace(/^file:(?:\/\/(?=\/))?/i, '') }
    : { kind: 'url', url: raw };
  return { source, name: name ?? archive?.name ?? null, version: archive?.version ?? null };
}

/** A local file or directory reference, as pip tells them from names. */
export function looksLikePath(text: string): boolean {
  return (
    text.startsWith('.') ||
    text.startsWith('/') ||
    text.startsWith('~') ||
    text.includes('/') ||
    text.includes('\\') ||
    ARCHIVE.test(text) ||
    text.toLowerCase().endsWith('.whl')
  );
}

/** Exact version of an archive when its name matches the requirement's (else null). */
export function archiveVersionFor(name: string, info: UrlInfo): string | null {
  if (!info.version || !info.name) return null;
  return normaliseName(info.name) === normaliseName(name) ? info.version : null;
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function clip(text: string): string {
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

export interface RequirementEntry {
  info: VersionInfo;
  source: DependencySource;
}

/** Where a parsed requirement comes from and how sure its version is. */
export function requirementEntry(req: Requirement): RequirementEntry {
  if (req.url === null)
    return { info: classifySpecifier(req.specifier), source: { kind: 'registry' } };
  const info = referenceInfo(req.url);
  const version = info.source.kind === 'git' ? null : archiveVersionFor(req.name, info);
  return {
    info: version ? { version, resolution: 'resolved' } : { version: null, resolution: 'unpinned' },
    source: info.source,
  };
}

/** A URL, or a local path (pip also takes `./dist/x.whl` and `../lib` where a URL may go). */
export function referenceInfo(ref: string): UrlInfo {
  const info = analyseUrl(ref);
  if (isUrl(ref)) return info;
  const hash = ref.indexOf('#');
  return { ...info, source: { kind: 'path', path: hash === -1 ? ref : ref.slice(0, hash) } };
}
