import { ECOSYSTEMS, type Ecosystem } from '../../../ecosystems/names';

/**
 * Package names in a question: the explicit spellings first (a purl, `@scope/name@1.2.3`,
 * `name==1.2`, `name@1.2.3`, Maven `group:artifact:1.0`, a Go module path, `npm:name`, a quoted
 * name), then a bare name where the sentence names one ("which repositories use lodash", "is
 * express vulnerable"). A mention is only a name: it becomes a package when the intent resolves
 * it among the tenant's own dependencies (two ecosystems holding the name ask back).
 */
export interface PackageMention {
  name: string;
  ecosystem: Ecosystem | null;
  version: string | null;
}

const PURL_TYPES: Record<string, Ecosystem> = {
  npm: 'npm',
  pypi: 'PyPI',
  maven: 'Maven',
  golang: 'Go',
  cargo: 'Cargo',
  gem: 'RubyGems',
  composer: 'Composer',
  nuget: 'NuGet',
  docker: 'Docker',
};

const PREFIX_ECOSYSTEMS: Record<string, Ecosystem> = {
  ...PURL_TYPES,
  go: 'Go',
  crates: 'Cargo',
  rubygems: 'RubyGems',
  pip: 'PyPI',
  python: 'PyPI',
};

/** Words that a bare-name pattern may catch but that never are the package asked about. */
const NOT_NAMES = new Set([
  ...'the a an any our my it its them this that these those which what who whom whose how we us you they'.split(
    ' ',
  ),
  ...'package packages library libraries dependency dependencies module modules crate crates gem gems'.split(
    ' ',
  ),
  ...'repository repositories repo repos project projects version versions it? anything something everything'.split(
    ' ',
  ),
  ...'vulnerable vulnerability vulnerabilities malicious affected exposed safe outdated deprecated old drifted been problems issues findings'.split(
    ' ',
  ),
  ...'production prod critical high medium low in on at of for from to since last this next'.split(
    ' ',
  ),
  ...'licence license licences licenses policy policies scan scans most least more less'.split(' '),
  ...'is are was were be been do does did have has had not no yes all every each some many much'.split(
    ' ',
  ),
  ...ECOSYSTEMS.map((e) => e.toLowerCase()),
  ...'node python java golang rust ruby php dotnet javascript typescript pip yarn'.split(' '),
]);

/** Every match of `pattern`, its groups as strings ('' for a group that took no part). */
function each(
  text: string,
  pattern: RegExp,
  build: (g: string[]) => PackageMention | null,
): PackageMention[] {
  return [...text.matchAll(pattern)].flatMap((m) => {
    const mention = build([...m].map((g) => g ?? ''));
    return mention ? [mention] : [];
  });
}

const orNull = (value: string) => (value === '' ? null : value);

const EXPLICIT: ReadonlyArray<(text: string) => PackageMention[]> = [
  (text) =>
    each(text, /\bpkg:([a-z]+)\/([^\s@?#]+)(?:@([^\s?#,]+))?/gi, ([, type, path, version]) => {
      const ecosystem = PURL_TYPES[(type ?? '').toLowerCase()];
      if (!ecosystem || !path) return null;
      const decoded = decodeURIComponent(path);
      const name = ecosystem === 'Maven' ? decoded.replace('/', ':') : decoded;
      return { name, ecosystem, version: version ? decodeURIComponent(version) : null };
    }),
  (text) =>
    each(
      text,
      /\b(npm|pypi|pip|python|maven|golang|go|cargo|crates|gem|rubygems|composer|nuget|docker):((?:@[\w.-]+\/)?[\w./-]*\w)(?:@(\d[\w.+-]*))?/gi,
      ([, prefix, name, version]) => ({
        name: name ?? '',
        ecosystem: PREFIX_ECOSYSTEMS[(prefix ?? '').toLowerCase()] ?? null,
        version: orNull(version ?? ''),
      }),
    ),
  (text) =>
    each(
      text,
      /(?<![\w@/])(@[a-z0-9][\w.-]*\/[a-z0-9][\w.-]*\w)(?:@(\d[\w.+-]*\w|\d))?/gi,
      ([, name, version]) => ({
        name: name ?? '',
        ecosystem: 'npm',
        version: orNull(version ?? ''),
      }),
    ),
  (text) =>
    each(
      text,
      /(?<![\w@/:.])([a-z0-9][\w.-]*)(?:\[[\w,]+\])?\s*===?\s*(\d[\w.+!-]*\w|\d)/gi,
      ([, name, version]) => ({
        name: name ?? '',
        ecosystem: 'PyPI',
        version: orNull(version ?? ''),
      }),
    ),
  (text) =>
    each(
      text,
      /(?<![\w@/:])([a-z][\w-]*(?:\.[\w-]+)+):([a-z][\w.-]*\w)(?::(\d[\w.-]*\w|\d))?/gi,
      ([, group, artifact, version]) => ({
        name: `${group}:${artifact}`,
        ecosystem: 'Maven',
        version: orNull(version ?? ''),
      }),
    ),
  (text) =>
    each(
      text,
      /(?<![\w@/:.])((?:github\.com|gitlab\.com|golang\.org|gopkg\.in|go\.uber\.org|google\.golang\.org|k8s\.io|go\.etcd\.io)\/[\w./-]*\w)(?:@(v\d[\w.+-]*\w))?/gi,
      ([, name, version]) => ({
        name: name ?? '',
        ecosystem: 'Go',
        version: orNull(version ?? ''),
      }),
    ),
  (text) =>
    each(
      text,
      /(?<![\w@/:.-])([a-z0-9][\w.-]*)@(v?\d[\w.+-]*\w|\d)(?![\w@])/gi,
      ([, name, version]) => ({
        name: name ?? '',
        ecosystem: null,
        version: orNull(version ?? ''),
      }),
    ),
  (text) =>
    each(
      text,
      /[`"\u201C\u201D']((?:@[\w.-]+\/)?[a-z0-9][\w./:-]*)[`"\u201C\u201D']/gi,
      ([, name]) => ({
        name: name ?? '',
        ecosystem: null,
        version: null,
      }),
    ),
];

/** Sentences that name a package with a bare word, on the lower-case question. */
const BARE: readonly RegExp[] = [
  /\b(?:affect|affects|affecting|vulnerabilities of)\s+(?:the\s+)?(?:package\s+)?([a-z0-9][\w./-]*\w)\b/,
  /\b(?:uses?|using|used by|depends? on|depending on|usage of|usages of|imports?|includes?|pulls? in|installs?)\s+(?:the\s+)?(?:package|library|dependency|module|crate|gem)?\s*([a-z0-9][\w./-]*\w|[a-z0-9])(?=[\s?.,!]|$)/,
  /\bwhere (?:is|are|do we use|does anyone use|we use)\s+(?:the\s+)?(?:package\s+|library\s+)?([a-z0-9][\w./-]*\w)\b/,
  /\b(?:package|library|dependency|module|crate|gem)\s+([a-z0-9][\w./-]*\w)\b/,
  /\bversions? of\s+(?:the\s+)?(?:package\s+|library\s+)?([a-z0-9][\w./-]*\w)\b/,
  /\bis\s+([a-z0-9][\w./-]*\w)\s+(?:vulnerable|affected|safe|malicious|used|exposed|outdated)\b/,
  /\b(?:who|which (?:repos|repositories|projects|services))\s+(?:still\s+)?(?:has|have|ships?|contains?)\s+([a-z0-9][\w./-]*\w)\b/,
];

function key(m: PackageMention): string {
  return `${m.ecosystem ?? ''} ${m.name.toLowerCase()} ${m.version ?? ''}`;
}

/** The package mentions of `text` (original case; vulnerability ids already removed). */
export function packagesIn(text: string): PackageMention[] {
  const found: PackageMention[] = [];
  const seen = new Set<string>();
  const names = new Set<string>();
  for (const extract of EXPLICIT) {
    for (const mention of extract(text)) {
      // A shorter spelling of a name already found (`lodash` inside `lodash@4`) adds nothing.
      if (names.has(mention.name.toLowerCase()) && !mention.version) continue;
      if (seen.has(key(mention))) continue;
      seen.add(key(mention));
      names.add(mention.name.toLowerCase());
      found.push(mention);
    }
  }
  if (found.length > 0) return found;
  const lower = text.toLowerCase();
  for (const pattern of BARE) {
    const name = pattern.exec(lower)?.[1];
    if (name && !NOT_NAMES.has(name) && !/^\d+$/.test(name)) {
      return [{ name, ecosystem: null, version: null }];
    }
  }
  return [];
}
