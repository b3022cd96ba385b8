import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LIMITS, parseOsvRecord, parseOsvText, parseTimestamp } from './parse';
import type { Advisory } from './types';

const FIXTURES = join(import.meta.dirname, '__fixtures__');

function fixture(name: string): Advisory {
  const result = parseOsvText(readFileSync(join(FIXTURES, name), 'utf8'), name);
  expect(result.rejected).toEqual([]);
  expect(result.advisories).toHaveLength(1);
  return result.advisories[0]!;
}

describe('parse: one scenario per database', () => {
  it('GHSA (Maven): enumerated versions, CVSS v3.1 scored, MODERATE kept, purl, references', () => {
    const a = fixture('ghsa-maven-enumerated-versions.json');
    expect(a.id).toBe('GHSA-9x4m-2c3w-7q5r');
    expect(a.modified).toBe('2024-02-16T08:07:52.686Z');
    expect(a.published).toBe('2023-12-29T15:30:37.000Z');
    expect(a.withdrawn).toBeNull();
    expect(a.aliases).toEqual(['CVE-2023-51001']);
    expect(a.databaseSeverity).toBe('medium');
    expect(a.severity).toEqual({
      source: 'cvss_v3',
      score: 5.5,
      rating: 'medium',
      vector: 'CVSS:3.1/AV:L/AC:L/PR:N/UI:R/S:U/C:N/I:N/A:H',
    });
    const [affected] = a.affected;
    expect(affected).toMatchObject({
      osvEcosystem: 'Maven',
      ecosystem: 'Maven',
      name: 'org.example:example-parser',
      purl: 'pkg:maven/org.example/example-parser',
      versions: ['3.10.0', '3.2.0', '3.24.1', '3.9.0'],
    });
    expect(affected!.ranges).toEqual([
      {
        type: 'ECOSYSTEM',
        repo: null,
        events: [
          { kind: 'introduced', version: '0' },
          { kind: 'fixed', version: '3.25.0' },
        ],
      },
    ]);
    expect(a.references).toHaveLength(2);
    expect(a.warnings).toEqual([]);
  });

  it('Go vulndb: SEMVER range with two introduced/fixed pairs, no severity at all', () => {
    const a = fixture('go-vulndb-semver-two-ranges.json');
    expect(a.affected[0]!.ecosystem).toBe('Go');
    expect(a.affected[0]!.ranges[0]!.events.map((e) => `${e.kind}:${e.version}`)).toEqual([
      'introduced:0',
      'fixed:1.6.0',
      'introduced:1.7.0',
      'fixed:1.7.2',
    ]);
    expect(a.severity).toEqual({ source: 'none', score: null, rating: null, vector: null });
    expect(a.summary).toBe('Log injection in github.com/example/web');
  });

  it('PyPA: name normalised per PEP 503, GIT range kept with its repo and odd hash', () => {
    const a = fixture('pypa-git-range-and-ecosystem-range.json');
    const [affected] = a.affected;
    expect(affected!.rawName).toBe('Flask_Session_Helper');
    expect(affected!.name).toBe('flask-session-helper');
    expect(affected!.ranges.map((r) => r.type)).toEqual(['GIT', 'ECOSYSTEM']);
    expect(affected!.ranges[0]!.repo).toBe('https://github.com/example/flask-session-helper');
    expect(a.summary).toBeNull();
  });

  it('RustSec: withdrawn timestamp kept, related ids kept apart from aliases', () => {
    const a = fixture('rustsec-withdrawn.json');
    expect(a.withdrawn).toBe('2023-01-10T12:00:00.000Z');
    expect(a.related).toEqual(['RUSTSEC-2022-0089']);
    expect(a.aliases).toEqual(['GHSA-2m3c-9q8v-wx6r']);
    expect(a.affected[0]).toMatchObject({ osvEcosystem: 'crates.io', ecosystem: 'Cargo' });
  });

  it('GHSA malware: empty `fixed` is no bound (range stays open), severity from the database', () => {
    const a = fixture('ghsa-npm-malware-empty-fixed.json');
    expect(a.affected[0]!.ranges[0]!.events).toEqual([{ kind: 'introduced', version: '0.0.0' }]);
    expect(a.warnings).toEqual([
      'affected[0].ranges[0].events[1].fixed: empty, treated as no fixed bound',
    ]);
    expect(a.severity).toEqual({
      source: 'database',
      score: null,
      rating: 'critical',
      vector: null,
    });
  });

  it('GHSA with both vectors: CVSS v4 wins over v3 and over the database rating', () => {
    const a = fixture('ghsa-cvss-v4-and-v3.json');
    expect(a.cvss.map((c) => [c.version, c.score, c.rating])).toEqual([
      ['3.1', 6.1, 'medium'],
      ['4.0', 5.3, 'medium'],
    ]);
    expect(a.severity.source).toBe('cvss_v4');
    expect(a.severity.score).toBe(5.3);
    expect(a.databaseSeverity).toBe('high');
  });

  it('unknown ecosystem (Debian:12): kept with ecosystem null and the name as written', () => {
    const a = fixture('osv-unknown-ecosystem-debian.json');
    expect(a.affected[0]).toMatchObject({
      osvEcosystem: 'Debian:12',
      ecosystem: null,
      name: 'openssl',
    });
  });

  it('RubySec derived: `versions: []` and no ranges (no vulnerable version), numeric CVSS score', () => {
    const a = fixture('rubysec-no-vulnerable-version.json');
    expect(a.affected[0]).toMatchObject({ ecosystem: 'RubyGems', ranges: [], versions: [] });
    // RubySec keeps a CVSS v3 score without its vector: rated by the CVSS bands.
    expect(a.severity).toEqual({ source: 'database', score: 7.5, rating: 'high', vector: null });
  });

  it('Packagist derived: last_affected events, Composer names lower-cased', () => {
    const a = fixture('packagist-last-affected.json');
    expect(a.affected[0]!.name).toBe('example/framework');
    expect(a.affected[0]!.ranges[0]!.events[1]).toEqual({
      kind: 'last_affected',
      version: '4.4.9',
    });
  });
});

describe('parse: hostile input', () => {
  const result = parseOsvText(
    readFileSync(join(FIXTURES, 'hostile-records.jsonl'), 'utf8'),
    'hostile-records.jsonl',
  );

  it('keeps the good records and rejects each bad line with its line number and reasons', () => {
    expect(result.advisories.map((a) => a.id)).toEqual([
      'GHSA-good-0000-0001',
      'GHSA-rang-0000-0003',
    ]);
    const rejected = Object.fromEntries(result.rejected.map((r) => [r.source, r]));
    expect(Object.keys(rejected).sort()).toEqual([
      'hostile-records.jsonl#2',
      'hostile-records.jsonl#3',
      'hostile-records.jsonl#4',
      'hostile-records.jsonl#5',
      'hostile-records.jsonl#6',
      'hostile-records.jsonl#8',
    ]);
    expect(rejected['hostile-records.jsonl#2']).toEqual({
      source: 'hostile-records.jsonl#2',
      id: 'GHSA-bad-modified',
      reasons: ['modified: missing or not an RFC 3339 timestamp'],
    });
    expect(rejected['hostile-records.jsonl#3']!.reasons).toEqual([
      'id: missing or not a valid OSV id',
    ]);
    expect(rejected['hostile-records.jsonl#4']!.reasons).toEqual([
      'id: missing or not a valid OSV id',
    ]);
    expect(rejected['hostile-records.jsonl#5']!.reasons).toEqual(['record is not a JSON object']);
    expect(rejected['hostile-records.jsonl#6']!.reasons[0]).toMatch(/^not valid JSON/);
    expect(rejected['hostile-records.jsonl#8']!.reasons).toEqual([
      'affected: not an array of at most 10000',
    ]);
  });

  it('drops only the bad parts of a record and says which', () => {
    const a = result.advisories[1]!;
    // `__proto__` is data: it neither withdraws the record nor pollutes anything.
    expect(a.withdrawn).toBeNull();
    expect(({} as Record<string, unknown>).withdrawn).toBeUndefined();
    expect(a.aliases).toEqual(['CVE-2024-0001']);
    expect(a.affected).toHaveLength(1);
    expect(a.affected[0]!.ranges).toEqual([
      {
        type: 'SEMVER',
        repo: null,
        events: [
          { kind: 'introduced', version: '1.0.0' },
          { kind: 'fixed', version: '2.0.0' },
        ],
      },
    ]);
    expect(a.affected[0]!.versions).toEqual(['3.0.0']);
    expect(a.cvss.map((c) => c.score)).toEqual([null, null]);
    expect(a.severity.source).toBe('none');
    expect(a.warnings).toEqual([
      'affected[0].ranges[0].type: unknown range type "WHATEVER", dropped',
      'affected[0].ranges[1]: no introduced event, range dropped',
      'affected[0].ranges[2].events[0]: must have exactly one of introduced/fixed/last_affected/limit',
      'affected[0].versions[1]: not a valid version, dropped',
      'affected[0].versions[2]: not a valid version, dropped',
      'affected[0].versions[3]: not a valid version, dropped',
      'affected[1].package: missing or invalid ecosystem/name, dropped',
      'affected[2]: not an object, dropped',
      'severity[0]: CVSS_V3 vector cannot be scored',
      'severity[1]: CVSS_V3 vector cannot be scored',
      'aliases[1]: not a valid id, dropped',
      'aliases[2]: not a valid id, dropped',
    ]);
  });

  it.each([
    ['null', null],
    ['a string', 'GHSA-x'],
    ['an array', []],
    ['a number', 42],
  ])('rejects %s as a record', (_label, value) => {
    expect(parseOsvRecord(value)).toEqual({
      ok: false,
      id: null,
      reasons: ['record is not a JSON object'],
    });
  });

  it('rejects over-long ids and wrong-typed fields without throwing', () => {
    const long = parseOsvRecord({
      id: `GHSA-${'a'.repeat(LIMITS.idLength)}`,
      modified: '2024-01-01T00:00:00Z',
    });
    expect(long.ok).toBe(false);
    const typed = parseOsvRecord({
      id: 'OSV-2024-1',
      modified: '2024-01-01T00:00:00Z',
      summary: 12,
      details: { x: 1 },
      references: 'nope',
      severity: {},
      aliases: 'CVE-2024-1',
      withdrawn: 'soon',
    });
    expect(typed.ok).toBe(true);
    if (!typed.ok) return;
    expect(typed.advisory.summary).toBeNull();
    expect(typed.advisory.details).toBeNull();
    expect(typed.advisory.references).toEqual([]);
    // An undatable withdrawal still withdraws.
    expect(typed.advisory.withdrawn).toBe('2024-01-01T00:00:00.000Z');
  });

  it('drops details above the size limit instead of storing them', () => {
    const r = parseOsvRecord({
      id: 'OSV-2024-2',
      modified: '2024-01-01T00:00:00Z',
      details: 'x'.repeat(LIMITS.detailsLength + 1),
    });
    expect(r.ok && r.advisory.details).toBeNull();
  });
});

describe('parse: containers', () => {
  const record = (id: string) => ({ id, modified: '2024-01-01T00:00:00Z' });

  it.each([
    ['one record', JSON.stringify(record('A-1')), ['A-1']],
    ['a JSON array', JSON.stringify([record('A-1'), record('A-2')]), ['A-1', 'A-2']],
    ['an osv.dev answer', JSON.stringify({ vulns: [record('A-3')] }), ['A-3']],
    [
      'JSON Lines with blank lines',
      `${JSON.stringify(record('A-1'))}\n\n${JSON.stringify(record('A-2'))}\n`,
      ['A-1', 'A-2'],
    ],
    [
      'a BOM and CRLF',
      `\ufeff${JSON.stringify(record('A-1'))}\r\n${JSON.stringify(record('A-2'))}\r\n`,
      ['A-1', 'A-2'],
    ],
    ['a pretty-printed record', JSON.stringify(record('A-4'), null, 2), ['A-4']],
    ['an empty file', '', []],
  ])('%s', (_label, text, ids) => {
    const result = parseOsvText(text, 'x');
    expect(result.rejected).toEqual([]);
    expect(result.advisories.map((a) => a.id)).toEqual(ids);
  });

  it.each([
    ['2024-01-01T00:00:00Z', '2024-01-01T00:00:00.000Z'],
    ['2024-10-10T17:22:00.587279Z', '2024-10-10T17:22:00.587Z'],
    ['2024-01-01T02:00:00+02:00', '2024-01-01T00:00:00.000Z'],
    ['0001-01-01T00:00:00Z', '0001-01-01T00:00:00.000Z'],
    ['2024-01-01', null],
    ['2024-13-01T00:00:00Z', null],
    ['yesterday', null],
  ])('timestamp %s → %s', (text, iso) => {
    expect(parseTimestamp(text)).toBe(iso);
  });
});
