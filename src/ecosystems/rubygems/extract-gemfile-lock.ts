import { buildPurl } from '../purl';
import { baseOf, siblingOf } from '../shared/tree-paths';
import type {
  DependencyScope,
  DependencySource,
  ExtractedDependency,
  ExtractInput,
  ExtractionError,
  ExtractionResult,
  Extractor,
} from '../types';
import { parseGemfile, scopeOfGroups } from './extract-gemfile';
import { parseGemVersion } from './versioning';

/** One `    name (version[-platform])` line of a GEM / GIT / PATH section. */
interface Spec {
  name: string;
  version: string;
  platform: string | null;
  source: DependencySource;
  line: number;
  /** Names from the `      child (requirement)` lines under it. */
  children: string[];
}

export interface ParsedGemfileLock {
  specs: Spec[];
  /** Names in DEPENDENCIES (`name!`, `name (req)!` mark a non-default source). */
  direct: Set<string>;
  platforms: string[];
  bundler: string | null;
  ruby: string | null;
  errors: ExtractionError[];
}

const SOURCE_SECTIONS = new Set(['GEM', 'GIT', 'PATH', 'PLUGIN SOURCE']);
const KNOWN_SECTIONS = new Set([
  ...SOURCE_SECTIONS,
  'PLATFORMS',
  'DEPENDENCIES',
  'RUBY VERSION',
  'BUNDLED WITH',
  'CHECKSUMS',
]);

/**
 * Bundler's NAME_VERSION split: the version is everything up to the first `-`, the rest is the
 * platform (`nokogiri (1.16.0-x86_64-linux)`); gem versions in lockfiles never contain `-`.
 */
const SPEC = /^ {4}([^\s(]+) \(([^-\s)]+)(?:-([^)\s]+))?\)$/;
const DEPENDENCY = /^ {6}([^\s(!]+)(?: \(([^)]*)\))?$/;
/**
 * A DEPENDENCIES line as Bundler's `Dependency#to_lock` writes it: the name, the requirements
 * (sorted, comma-joined) in parentheses, then `!` when the gem has a non-default source:
 * `rails`, `rails (~> 7.2)`, `rails!`, `rails (~> 7.2)!`, `rails (>= 7.0, < 8)!`. The `!` is also
 * accepted right after the name (`rails! (~> 7.2)`), which older hand-edited locks show; at most
 * one `!` in all.
 */
const DIRECT = /^ {2}([^\s(!]+)(?:(!)(?: \(([^)]*)\))?|(?: \(([^)]*)\))?(!)?)$/;
const ATTRIBUTE = /^ {2}([a-z_]+):(?: (.*))?$/;

function sectionSource(section: string, attributes: Map<string, string>): DependencySource {
  const remote = attributes.get('remote') ?? '';
  if (section === 'GIT') {
    return { kind: 'git', url: remote, ref: attributes.get('revision') ?? null };
  }
  if (section === 'PATH') return { kind: 'path', path: remote };
  return { kind: 'registry' };
}

/** Reads the sections of a Gemfile.lock in one pass. Never throws. */
export function parseGemfileLock(text: string): ParsedGemfileLock {
  const result: ParsedGemfileLock = {
    specs: [],
    direct: new Set(),
    platforms: [],
    bundler: null,
    ruby: null,
    errors: [],
  };
  const lines = text.split('\n');
  let section: string | null = null;
  let attributes = new Map<string, string>();
  let inSpecs = false;
  let current: Spec | null = null;
  let sawSection = false;
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] as string).replace(/\r$/, '');
    const lineNo = i + 1;
    if (line.trim().length === 0) continue;
    if (!line.startsWith(' ')) {
      section = line.trim();
      attributes = new Map();
      inSpecs = false;
      current = null;
      if (KNOWN_SECTIONS.has(section)) sawSection = true;
      // Upper-case headers unknown here are later Bundler additions: their lines are skipped.
      else if (!/^[A-Z][A-Z ]*$/.test(section)) {
        result.errors.push({ line: lineNo, message: 'unexpected line outside any section' });
      }
      continue;
    }
    if (section === null) {
      result.errors.push({ line: lineNo, message: 'indented line outside any section' });
      continue;
    }
    if (SOURCE_SECTIONS.has(section)) {
      if (!inSpecs) {
        const attribute = ATTRIBUTE.exec(line);
        if (!attribute) {
          result.errors.push({ line: lineNo, message: `unexpected line in ${section}` });
        } else if (attribute[1] === 'specs') {
          inSpecs = true;
        } else {
          attributes.set(attribute[1] as string, (attribute[2] ?? '').trim());
        }
        continue;
      }
      const spec = SPEC.exec(line);
      if (spec) {
        current = {
          name: spec[1] as string,
          version: spec[2] as string,
          platform: spec[3] ?? null,
          source: sectionSource(section, attributes),
          line: lineNo,
          children: [],
        };
        if (!parseGemVersion(current.version)) {
          result.errors.push({ line: lineNo, message: `invalid version for ${current.name}` });
          current = null;
        } else {
          result.specs.push(current);
        }
        continue;
      }
      const dependency = DEPENDENCY.exec(line);
      if (dependency && current) {
        current.children.push(dependency[1] as string);
        continue;
      }
      // A dependency line under a skipped spec is skipped with it, silently.
      if (!dependency)
        result.errors.push({ line: lineNo, message: `unexpected line in ${section} specs` });
    } else if (section === 'DEPENDENCIES') {
      const direct = DIRECT.exec(line);
      if (direct) result.direct.add(direct[1] as string);
      else result.errors.push({ line: lineNo, message: 'unexpected line in DEPENDENCIES' });
    } else if (section === 'PLATFORMS') {
      result.platforms.push(line.trim());
    } else if (section === 'BUNDLED WITH') {
      result.bundler = line.trim();
    } else if (section === 'RUBY VERSION') {
      result.ruby = line.trim();
    }
    // CHECKSUMS and sections unknown to this version are skipped.
  }
  if (!sawSection && text.trim().length > 0) {
    // Line-by-line complaints about something that is not a lockfile at all would be noise.
    result.errors = [{ line: null, message: 'not a Gemfile.lock: no sections found' }];
  }
  return result;
}

function siblingManifest(path: string): string {
  return siblingOf(path, path.endsWith('gems.locked') ? 'gems.rb' : 'Gemfile');
}

const SCOPE_RANK: DependencyScope[] = ['runtime', 'development', 'test'];

/**
 * Scopes from the sibling Gemfile's groups: each direct gem takes the scope of its groups (runtime
 * when it is declared anywhere outside development/test), and a transitive gem takes the strongest
 * scope of the direct gems that reach it (runtime > development > test). Without a Gemfile,
 * everything is runtime.
 */
function scopesFromGemfile(
  gemfile: string | null,
  parsed: ParsedGemfileLock,
): Map<string, DependencyScope> {
  const scopes = new Map<string, DependencyScope>();
  if (gemfile === null) return scopes;
  const declared = new Map<string, DependencyScope>();
  for (const gem of parseGemfile(gemfile).gems) {
    const scope = scopeOfGroups(gem.groups);
    const previous = declared.get(gem.name);
    if (!previous || SCOPE_RANK.indexOf(scope) < SCOPE_RANK.indexOf(previous)) {
      declared.set(gem.name, scope);
    }
  }
  const children = new Map<string, string[]>();
  for (const spec of parsed.specs) {
    children.set(spec.name, [...(children.get(spec.name) ?? []), ...spec.children]);
  }
  for (const scope of SCOPE_RANK) {
    // Gems in DEPENDENCIES but missing from the Gemfile (e.g. added by a plugin) count as runtime.
    const roots = [...parsed.direct].filter((name) => (declared.get(name) ?? 'runtime') === scope);
    const queue = roots.filter((name) => !scopes.has(name));
    for (const name of queue) scopes.set(name, scope);
    while (queue.length > 0) {
      const name = queue.pop() as string;
      for (const child of children.get(name) ?? []) {
        if (!scopes.has(child)) {
          scopes.set(child, scope);
          queue.push(child);
        }
      }
    }
  }
  return scopes;
}

/**
 * Gemfile.lock: GEM (registry), GIT (git at the locked revision) and PATH (path) specs, edges from
 * the indented dependency lines, `direct` from DEPENDENCIES, scopes from the sibling Gemfile's
 * groups. Platform variants of one version (`ffi (1.17.2-x86_64-linux-gnu)`, `ffi (1.17.2-arm64-darwin)`)
 * are one dependency at the first variant's line; the purl carries `platform` only when all the
 * variants share one non-`ruby` platform.
 */
export function extractGemfileLock(input: ExtractInput): ExtractionResult {
  try {
    const parsed = parseGemfileLock(input.text);
    const scopes = scopesFromGemfile(input.readFile(siblingManifest(input.path)), parsed);
    const parents = new Map<string, string[]>();
    for (const spec of parsed.specs) {
      for (const child of spec.children) {
        const list = parents.get(child) ?? [];
        if (!list.includes(spec.name)) list.push(spec.name);
        parents.set(child, list);
      }
    }
    const merged = new Map<string, { spec: Spec; platforms: Set<string> }>();
    for (const spec of parsed.specs) {
      const key = JSON.stringify([spec.name, spec.version, spec.source]);
      const entry = merged.get(key);
      if (entry) entry.platforms.add(spec.platform ?? 'ruby');
      else merged.set(key, { spec, platforms: new Set([spec.platform ?? 'ruby']) });
    }
    const dependencies: ExtractedDependency[] = [];
    for (const { spec, platforms } of merged.values()) {
      const [only] = platforms;
      const qualifiers =
        platforms.size === 1 && only !== 'ruby' && only ? { platform: only } : undefined;
      // `PATH remote: .` is the gem of the `gemspec` line: the project itself.
      const own =
        spec.source.kind === 'path' && (spec.source.path === '.' || spec.source.path === './');
      dependencies.push({
        name: spec.name,
        version: spec.version,
        purl: buildPurl('gem', spec.name, spec.version, qualifiers),
        scope: own ? 'self' : (scopes.get(spec.name) ?? 'runtime'),
        direct: !own && parsed.direct.has(spec.name),
        resolution: 'resolved',
        line: spec.line,
        parents: parents.get(spec.name) ?? [],
        source: spec.source,
      });
    }
    return { dependencies, errors: parsed.errors };
  } catch (error) {
    return {
      dependencies: [],
      errors: [{ line: null, message: `Gemfile.lock: ${String(error)}` }],
    };
  }
}

export const gemfileLockExtractor: Extractor = {
  name: 'rubygems/gemfile-lock',
  version: 3,
  kind: 'lockfile',
  matches: (path) => {
    const base = baseOf(path);
    return base === 'Gemfile.lock' || base === 'gems.locked';
  },
  extract: extractGemfileLock,
  describe: (input) => {
    const { bundler } = parseGemfileLock(input.text);
    return bundler ? `Gemfile.lock (bundler ${bundler})` : 'Gemfile.lock';
  },
};
