/**
 * Deterministic OSV records with realistic shapes, for `npm run bench:osv-import` (the whole-database
 * scale of docs/benchmarks.md). The mix follows osv.dev's all-ecosystem export and the records of
 * ../shared/data/osv: GitHub advisories (GHSA, most with a CVE alias) in every ecosystem, plus
 * ecosystem databases that republish the same CVE (PYSEC for PyPI, GO for Go, RUSTSEC for
 * crates.io), so about a fifth of the records join an alias group with an earlier one. A record
 * names 1–3 packages (rarely more), 1–2 ranges of introduced/fixed events, an explicit `versions`
 * list for most ECOSYSTEM ranges (0–60 entries), 2–9 references, a CVSS v3 vector for most, and
 * markdown details of 150–2,500 characters. About 1% are OpenSSF `MAL-` records naming every
 * version. The same seed gives the same records byte for byte.
 */

/** mulberry32: small, fast, good enough for shapes. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface EcosystemShape {
  osv: string;
  share: number;
  name: (n: number) => string;
  /** The ecosystem's own database republishing GHSA records under another id, if any. */
  republisher?: string;
  rangeType: 'ECOSYSTEM' | 'SEMVER';
}

const ECOSYSTEMS: EcosystemShape[] = [
  {
    osv: 'npm',
    share: 0.24,
    name: (n) => (n % 5 === 0 ? `@scope${n % 97}/pkg-${n}` : `pkg-${n}`),
    rangeType: 'SEMVER',
  },
  {
    osv: 'PyPI',
    share: 0.16,
    name: (n) => `py-pkg-${n}`,
    republisher: 'PYSEC',
    rangeType: 'ECOSYSTEM',
  },
  {
    osv: 'Maven',
    share: 0.15,
    name: (n) => `org.example${n % 211}:artifact-${n}`,
    rangeType: 'ECOSYSTEM',
  },
  {
    osv: 'Go',
    share: 0.14,
    name: (n) => `github.com/org${n % 389}/mod-${n}`,
    republisher: 'GO',
    rangeType: 'SEMVER',
  },
  {
    osv: 'Packagist',
    share: 0.1,
    name: (n) => `vendor${n % 173}/package-${n}`,
    rangeType: 'ECOSYSTEM',
  },
  { osv: 'RubyGems', share: 0.07, name: (n) => `gem-${n}`, rangeType: 'ECOSYSTEM' },
  {
    osv: 'crates.io',
    share: 0.07,
    name: (n) => `crate-${n}`,
    republisher: 'RUSTSEC',
    rangeType: 'SEMVER',
  },
  {
    osv: 'NuGet',
    share: 0.07,
    name: (n) => `Example${n % 131}.Package${n}`,
    rangeType: 'ECOSYSTEM',
  },
];

const GHSA_ALPHABET = '23456789cfghjmpqrvwx';
const WORDS =
  'allows remote attackers to execute arbitrary code via a crafted request the parser does not validate input length before copying into a fixed buffer which leads to denial of service when processing untrusted data an authenticated user can bypass access checks and read files outside the configured root directory'.split(
    ' ',
  );
const VECTORS = [
  'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H',
  'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:N/A:H',
  'CVSS:3.1/AV:N/AC:H/PR:N/UI:R/S:U/C:L/I:L/A:N',
  'CVSS:3.1/AV:L/AC:L/PR:L/UI:N/S:U/C:H/I:N/A:N',
  'CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:L/A:N',
];
const SEVERITY_WORDS = ['LOW', 'MODERATE', 'HIGH', 'CRITICAL'];

function ghsaId(n: number): string {
  let out = '';
  let x = n * 2654435761;
  for (let i = 0; i < 12; i++) {
    out += GHSA_ALPHABET[Math.abs(x) % 20];
    x = Math.floor(x / 20) + i * 7919 + n;
  }
  return `GHSA-${out.slice(0, 4)}-${out.slice(4, 8)}-${out.slice(8, 12)}`;
}

function pick<T>(rnd: () => number, items: readonly T[]): T {
  return items[Math.floor(rnd() * items.length)] as T;
}

function text(rnd: () => number, min: number, max: number): string {
  const length = min + Math.floor(rnd() * (max - min));
  const words: string[] = [];
  let size = 0;
  while (size < length) {
    const word = pick(rnd, WORDS);
    words.push(word);
    size += word.length + 1;
  }
  return words.join(' ');
}

function isoDate(rnd: () => number, fromYear: number): string {
  const ms = Date.UTC(fromYear, 0, 1) + Math.floor(rnd() * 6 * 365 * 86_400_000);
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}

function affected(rnd: () => number, shape: EcosystemShape, n: number, malicious: boolean): object {
  const name = shape.name(n);
  const pkg = { ecosystem: shape.osv, name };
  if (malicious) {
    return { package: pkg, ranges: [{ type: 'SEMVER', events: [{ introduced: '0' }] }] };
  }
  const major = Math.floor(rnd() * 8);
  const ranges: object[] = [];
  const versions: string[] = [];
  const rangeCount = rnd() < 0.8 ? 1 : 2;
  for (let r = 0; r < rangeCount; r++) {
    const from = r === 0 && rnd() < 0.5 ? '0' : `${major + r}.${Math.floor(rnd() * 10)}.0`;
    const fixed = `${major + r}.${10 + Math.floor(rnd() * 10)}.${Math.floor(rnd() * 5)}`;
    ranges.push({ type: shape.rangeType, events: [{ introduced: from }, { fixed }] });
    if (shape.rangeType === 'ECOSYSTEM' && rnd() < 0.8) {
      const count = Math.floor(rnd() * 30);
      for (let v = 0; v < count; v++) versions.push(`${major + r}.${v % 10}.${Math.floor(v / 10)}`);
    }
  }
  const entry: Record<string, unknown> = { package: pkg, ranges };
  if (versions.length > 0) entry.versions = versions;
  if (rnd() < 0.5) {
    entry.database_specific = {
      source: `https://github.com/github/advisory-database/blob/main/advisories/${n}.json`,
    };
  }
  return entry;
}

function references(rnd: () => number, n: number, cve: string | null): object[] {
  const refs: object[] = [];
  if (cve) refs.push({ type: 'ADVISORY', url: `https://nvd.nist.gov/vuln/detail/${cve}` });
  const count = 1 + Math.floor(rnd() * 8);
  for (let r = 0; r < count; r++) {
    refs.push({
      type: pick(rnd, ['WEB', 'PACKAGE', 'FIX', 'REPORT', 'ADVISORY']),
      url: `https://example.org/project-${n}/issues/${r}${Math.floor(rnd() * 10_000)}`,
    });
  }
  return refs;
}

function pickEcosystem(rnd: () => number): EcosystemShape {
  let roll = rnd();
  for (const shape of ECOSYSTEMS) {
    roll -= shape.share;
    if (roll < 0) return shape;
  }
  return ECOSYSTEMS[0] as EcosystemShape;
}

/**
 * Record `index` (0-based) of the set generated from `seed`. Every fifth-or-so record republishes
 * an earlier one's CVE under the ecosystem database's id (an alias group of two).
 */
export function osvRecord(index: number, seed = 1): Record<string, unknown> {
  const rnd = random(seed * 1_000_003 + index);
  const shape = pickEcosystem(rnd);
  const malicious = rnd() < 0.01;
  const republish = !malicious && shape.republisher !== undefined && index > 10 && rnd() < 0.35;
  // A republished record names the CVE and GHSA of an earlier record of the same package.
  const origin = republish ? index - 1 - Math.floor(rnd() * Math.min(index - 1, 5000)) : index;
  const cve = rnd() < 0.85 ? `CVE-${2015 + (origin % 10)}-${10_000 + origin}` : null;
  const id = malicious
    ? `MAL-2025-${index}`
    : republish
      ? `${shape.republisher}-${2015 + (index % 10)}-${index}`
      : ghsaId(index);
  const aliases = malicious
    ? []
    : republish
      ? [ghsaId(origin), ...(cve ? [cve] : [])]
      : cve
        ? [cve]
        : [];
  const packages = rnd() < 0.85 ? 1 : rnd() < 0.8 ? 2 : 3 + Math.floor(rnd() * 4);
  const published = isoDate(rnd, 2016);
  const record: Record<string, unknown> = {
    schema_version: '1.6.0',
    id,
    modified: isoDate(rnd, 2022),
    published,
    aliases,
    summary: malicious ? `Malicious code in ${shape.name(index)}` : text(rnd, 30, 90),
    details: text(rnd, 150, 2500),
    affected: Array.from({ length: packages }, (_, p) =>
      affected(rnd, shape, (republish ? origin : index) * 7 + p, malicious),
    ),
    references: references(rnd, index, cve),
  };
  if (!malicious && rnd() < 0.75) {
    record.severity = [{ type: 'CVSS_V3', score: pick(rnd, VECTORS) }];
  }
  if (!malicious) {
    record.database_specific = {
      severity: pick(rnd, SEVERITY_WORDS),
      cwe_ids: [`CWE-${20 + Math.floor(rnd() * 900)}`],
      github_reviewed: rnd() < 0.7,
    };
  }
  return record;
}

/** Records `[from, to)` as JSON Lines text. */
export function osvLines(from: number, to: number, seed = 1): string {
  const lines: string[] = [];
  for (let i = from; i < to; i++) lines.push(JSON.stringify(osvRecord(i, seed)));
  return `${lines.join('\n')}\n`;
}
