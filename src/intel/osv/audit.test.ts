import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SHARED_DATA_MISSING, sharedDataDir } from '../../../test/support/shared-data';
import { findEcosystem } from '../../ecosystems/ecosystem-list';
import { extractFiles } from '../../ecosystems/extract-tree';
import { auditExtraction, failsThreshold, hasMaliciousPackage, prepareAdvisories } from './audit';
import { parseOsvText } from './parse';

/** An OSV record naming one package, affected below `fixed`. */
function advisory(id: string, ecosystem: string, name: string, fixed: string) {
  return {
    id,
    modified: '2026-01-01T00:00:00Z',
    summary: `${name} flaw`,
    affected: [
      {
        package: { ecosystem, name },
        ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }, { fixed }] }],
      },
    ],
  };
}

function auditOf(files: Record<string, string>, records: object[]) {
  const parsed = parseOsvText(records.map((r) => JSON.stringify(r)).join('\n'), 'test.jsonl');
  expect(parsed.rejected).toEqual([]);
  return auditExtraction(
    extractFiles(new Map(Object.entries(files))),
    prepareAdvisories(parsed.advisories),
  );
}

const CARGO_LOCK = `version = 4

[[package]]
name = "mylib"
version = "1.0.0"
dependencies = ["smallvec"]

[[package]]
name = "smallvec"
version = "1.13.2"
source = "registry+https://github.com/rust-lang/crates.io-index"
`;

describe('auditExtraction: the project itself (scope self)', () => {
  it('a versioned own package is matched: a library sees the advisories against its releases', () => {
    const report = auditOf({ 'Cargo.lock': CARGO_LOCK }, [
      advisory('RUSTSEC-2026-0001', 'crates.io', 'mylib', '1.0.1'),
      advisory('RUSTSEC-2026-0002', 'crates.io', 'smallvec', '1.0.0'),
    ]);
    expect(report.findings.map((f) => [f.name, f.version, f.status, f.scope, f.direct])).toEqual([
      ['mylib', '1.0.0', 'affected', 'self', false],
    ]);
    // Counted as a dependency it is not: one file, one dependency.
    expect(report.stats.dependencies).toBe(1);
  });

  it('an own package without a version (the go.mod module) is not matched', () => {
    const goMod = 'module example.com/lib\n\ngo 1.22\n\nrequire golang.org/x/text v0.3.0\n';
    const report = auditOf({ 'go.mod': goMod }, [
      advisory('GO-2026-0001', 'Go', 'example.com/lib', '1.5.0'),
      advisory('GO-2026-0002', 'Go', 'golang.org/x/text', '0.3.8'),
    ]);
    expect(report.findings.map((f) => [f.name, f.status])).toEqual([
      ['golang.org/x/text', 'affected'],
    ]);
  });
});

describe('auditExtraction: Go replace', () => {
  const goMod = [
    'module example.com/app',
    '',
    'require (',
    '\tgopkg.in/yaml.v3 v3.0.0',
    '\tgithub.com/vendored/lib v1.4.0',
    '\tgolang.org/x/net v0.17.0',
    ')',
    '',
    'replace gopkg.in/yaml.v3 => github.com/acme/yaml v3.0.2',
    'replace github.com/vendored/lib => ../lib',
    'replace golang.org/x/net v0.17.0 => golang.org/x/net v0.33.0',
    '',
  ].join('\n');
  const report = auditOf({ 'go.mod': goMod }, [
    advisory('GO-2026-0010', 'Go', 'gopkg.in/yaml.v3', '3.0.1'),
    advisory('GO-2026-0011', 'Go', 'github.com/acme/yaml', '3.0.3'),
    advisory('GO-2026-0012', 'Go', 'github.com/vendored/lib', '1.5.0'),
    advisory('GO-2026-0013', 'Go', 'golang.org/x/net', '0.23.0'),
  ]);
  const rows = report.findings.map((f) => [f.name, f.version, f.status, f.reason ?? null]);

  it('a fork: the replacement is matched as usual, the original as possibly affected', () => {
    expect(rows).toContainEqual(['github.com/acme/yaml', 'v3.0.2', 'affected', null]);
    expect(rows).toContainEqual([
      'gopkg.in/yaml.v3',
      'v3.0.0',
      'possibly_affected',
      'replaced by github.com/acme/yaml',
    ]);
  });

  it('a local directory: the original at its required version, possibly affected', () => {
    expect(rows).toContainEqual([
      'github.com/vendored/lib',
      'v1.4.0',
      'possibly_affected',
      'replaced by ../lib',
    ]);
  });

  it('a version replacement of the same module: only the version built is matched', () => {
    expect(rows.filter((r) => r[0] === 'golang.org/x/net')).toEqual([]);
    expect(rows).toHaveLength(3);
    // Three modules are built; the replaced upstream is not counted again.
    expect(report.stats.dependencies).toBe(3);
  });
});

const maliciousRecords = readFileSync(
  join(import.meta.dirname, '__fixtures__', 'malicious-test-records.jsonl'),
  'utf8',
)
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line) as object);

const packageLock = (name: string, version: string) =>
  JSON.stringify({
    name: 'app',
    version: '1.0.0',
    lockfileVersion: 3,
    packages: {
      '': { name: 'app', version: '1.0.0', dependencies: { [name]: `^${version}` } },
      [`node_modules/${name}`]: { version },
    },
  });

describe('auditExtraction: malicious packages (OSV MAL- records)', () => {
  it('a MAL- record is a finding of kind malicious, critical, apart from flaws', () => {
    const report = auditOf({ 'package-lock.json': packageLock('evil-colors', '1.4.44') }, [
      ...maliciousRecords,
      advisory('GHSA-aaaa-bbbb-cccc', 'npm', 'evil-colors', '2.0.0'),
    ]);
    const rows = report.findings.map((f) => [f.kind, f.vulnerabilityId, f.status, f.severity]);
    expect(rows).toEqual([
      ['malicious', 'GHSA-xm4w-9v2c-7q3r', 'affected', 'critical'],
      ['vulnerability', 'GHSA-aaaa-bbbb-cccc', 'affected', null],
    ]);
    expect(report.findings[0]?.aliases).toEqual(['MAL-2026-90001']);
    expect(hasMaliciousPackage(report.findings)).toBe(true);
    // --fail-on looks at flaws only; a malicious package has its own exit (3, in the CLI).
    expect(failsThreshold(report.findings, 'critical')).toBe(false);
  });

  it('a record naming every version matches whatever is installed, a declared range included', () => {
    const manifest = JSON.stringify({ name: 'web', dependencies: { 'evil-colors': '^1.0.0' } });
    const report = auditOf({ 'package.json': manifest }, maliciousRecords);
    expect(report.findings.map((f) => [f.name, f.version, f.kind, f.status])).toEqual([
      ['evil-colors', '^1.0.0', 'malicious', 'affected'],
    ]);
  });

  it('a versions list matches its versions; a range that may reach them is possibly affected', () => {
    const report = auditOf(
      {
        'requirements.txt': 'reqeusts-toolbelt2==0.1.1\n',
        'other/requirements.txt': 'reqeusts-toolbelt2>=0.1\n',
        'safe/requirements.txt': 'reqeusts-toolbelt2==0.2.0\n',
        'Cargo.lock': `version = 4\n\n[[package]]\nname = "tokio-rt-helper"\nversion = "1.0.0"\nsource = "registry+https://github.com/rust-lang/crates.io-index"\n`,
      },
      maliciousRecords,
    );
    expect(report.findings.map((f) => [f.file, f.name, f.kind, f.status])).toEqual([
      ['Cargo.lock', 'tokio-rt-helper', 'malicious', 'affected'],
      ['other/requirements.txt', 'reqeusts-toolbelt2', 'malicious', 'possibly_affected'],
      ['requirements.txt', 'reqeusts-toolbelt2', 'malicious', 'affected'],
    ]);
  });
});

describe.skipIf(!sharedDataDir)(
  `auditExtraction: the ten real OSV MAL- records${sharedDataDir ? '' : ` (${SHARED_DATA_MISSING})`}`,
  () => {
    const dir = sharedDataDir ? join(sharedDataDir, 'osv', 'malicious') : '';
    const records = sharedDataDir
      ? readdirSync(dir)
          .filter((f) => f.endsWith('.jsonl'))
          .flatMap((f) => readFileSync(join(dir, f), 'utf8').trim().split('\n'))
          .map((line) => JSON.parse(line) as MalRecord)
      : [];

    it('each matches its package at a version it names (any version for introduced 0)', () => {
      expect(records).toHaveLength(10);
      const parsed = parseOsvText(records.map((r) => JSON.stringify(r)).join('\n'), 'mal.jsonl');
      expect(parsed.rejected).toEqual([]);
      const prepared = prepareAdvisories(parsed.advisories);
      expect(prepared.vulnerabilities.every((v) => v.kind === 'malicious')).toBe(true);
      for (const record of records) {
        const affected = record.affected[0]!;
        const version = affected.versions?.at(-1) ?? '9.9.9';
        const ecosystem = findEcosystem(affected.package.ecosystem);
        const matches = prepared.index.match({
          ecosystem: ecosystem!.id,
          name: ecosystem!.normaliseName(affected.package.name),
          version,
          resolution: 'resolved',
        });
        expect(
          matches.map((m) => m.advisory.id),
          record.id,
        ).toEqual([record.id]);
      }
    });
  },
);

interface MalRecord {
  id: string;
  affected: { package: { ecosystem: string; name: string }; versions?: string[] }[];
}
