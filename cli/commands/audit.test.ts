import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { strToU8, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Runs the real bin the way a user does: `node cli/driftwatch.js audit ...`. */
function audit(...args: string[]) {
  return auditWith({}, ...args);
}

function auditWith(env: Record<string, string>, ...args: string[]) {
  const child = spawnSync(
    process.execPath,
    [join(projectRoot, 'cli', 'driftwatch.js'), 'audit', ...args],
    { cwd: projectRoot, encoding: 'utf8', timeout: 60_000, env: { ...process.env, ...env } },
  );
  return { code: child.status, stdout: child.stdout, stderr: child.stderr };
}

const osv = (
  id: string,
  ecosystem: string,
  name: string,
  events: object[],
  extra: object = {},
) => ({
  id,
  modified: '2024-03-01T00:00:00Z',
  published: '2024-02-01T00:00:00Z',
  summary: `${name} flaw ${id}`,
  affected: [{ package: { ecosystem, name }, ranges: [{ type: 'ECOSYSTEM', events }] }],
  ...extra,
});

// The same flaw from two databases (joined by the CVE), a critical Go flaw, a PyPI flaw for an
// unpinned requirement, a withdrawn record and a record that cannot be used.
const RECORDS = {
  ghsaLodash: osv(
    'GHSA-jf85-cpcp-j695',
    'npm',
    'lodash',
    [{ introduced: '0' }, { fixed: '4.17.12' }],
    {
      aliases: ['CVE-2019-10744'],
      severity: [{ type: 'CVSS_V3', score: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:N/A:H' }],
    },
  ),
  retireLodash: osv(
    'x_RETIRE-lodash-1',
    'npm',
    'lodash',
    [{ introduced: '4.0.0' }, { fixed: '4.17.12' }],
    {
      aliases: ['CVE-2019-10744'],
    },
  ),
  goWeb: osv(
    'GO-2024-0001',
    'Go',
    'github.com/example/web',
    [{ introduced: '1.7.0' }, { fixed: '1.7.2' }],
    {
      aliases: ['CVE-2024-30001'],
      severity: [{ type: 'CVSS_V3', score: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H' }],
    },
  ),
  pyRequests: osv(
    'PYSEC-2023-74',
    'PyPI',
    'requests',
    [{ introduced: '2.3.0' }, { fixed: '2.31.0' }],
    {
      database_specific: { severity: 'MODERATE' },
    },
  ),
  withdrawn: osv('GHSA-wdrn-0000-0000', 'npm', 'minimist', [{ introduced: '0' }], {
    withdrawn: '2024-03-01T00:00:00Z',
  }),
};

let root: string;
let project: string;
let clean: string;
let jsonl: string;
let dir: string;
let zip: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'driftwatch-audit-'));
  project = join(root, 'project');
  clean = join(root, 'clean');
  const files: Record<string, string> = {
    'project/package-lock.json': JSON.stringify({
      name: 'app',
      lockfileVersion: 3,
      packages: {
        '': { name: 'app', dependencies: { lodash: '^4.17.0', minimist: '^1.2.0' } },
        'node_modules/lodash': { version: '4.17.11' },
        'node_modules/minimist': { version: '1.2.0' },
      },
    }),
    'project/go.mod':
      'module example.com/app\n\ngo 1.22\n\nrequire github.com/example/web v1.7.1\n',
    'project/requirements.txt': 'requests\n',
    'clean/package-lock.json': JSON.stringify({
      name: 'ok',
      lockfileVersion: 3,
      packages: { '': { name: 'ok' }, 'node_modules/lodash': { version: '4.17.21' } },
    }),
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  const records = Object.values(RECORDS);
  jsonl = join(root, 'advisories.jsonl');
  writeFileSync(
    jsonl,
    `${records.map((r) => JSON.stringify(r)).join('\n')}\n{"id":"broken","modified":"never"}\n`,
  );
  dir = join(root, 'osv-dir');
  mkdirSync(join(dir, 'nested'), { recursive: true });
  records.forEach((r, i) => {
    writeFileSync(join(dir, i % 2 ? 'nested' : '', `${r.id}.json`), JSON.stringify(r, null, 2));
  });
  zip = join(root, 'all.zip');
  writeFileSync(
    zip,
    zipSync(Object.fromEntries(records.map((r) => [`${r.id}.json`, strToU8(JSON.stringify(r))]))),
  );
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

interface Finding {
  name: string;
  version: string | null;
  status: string;
  vulnerabilityId: string;
  aliases: string[];
  advisoryIds: string[];
  severity: string | null;
  file: string;
}

function findings(stdout: string): Finding[] {
  return (JSON.parse(stdout) as { findings: Finding[] }).findings;
}

describe('driftwatch audit', () => {
  it('--json: one finding per flaw (aliases joined), withdrawn ignored, unpinned possibly affected', () => {
    const { code, stdout } = audit(project, '--osv', jsonl, '--json');
    expect(code).toBe(1);
    const report = JSON.parse(stdout);
    const rows = (report.findings as Finding[]).map((f) => ({
      name: f.name,
      version: f.version,
      status: f.status,
      id: f.vulnerabilityId,
      aliases: f.aliases,
      advisoryIds: f.advisoryIds,
      severity: f.severity,
      file: f.file,
    }));
    expect(rows).toEqual([
      {
        name: 'github.com/example/web',
        version: 'v1.7.1',
        status: 'affected',
        id: 'CVE-2024-30001',
        aliases: ['GO-2024-0001'],
        advisoryIds: ['GO-2024-0001'],
        severity: 'critical',
        file: 'go.mod',
      },
      {
        name: 'lodash',
        version: '4.17.11',
        status: 'affected',
        id: 'CVE-2019-10744',
        aliases: ['GHSA-jf85-cpcp-j695', 'x_RETIRE-lodash-1'],
        advisoryIds: ['GHSA-jf85-cpcp-j695', 'x_RETIRE-lodash-1'],
        severity: 'high',
        file: 'package-lock.json',
      },
      {
        name: 'requests',
        version: null,
        status: 'possibly_affected',
        id: 'PYSEC-2023-74',
        aliases: [],
        advisoryIds: ['PYSEC-2023-74'],
        severity: 'medium',
        file: 'requirements.txt',
      },
    ]);
    expect(report.findings[2].ranges).toEqual([
      {
        type: 'ECOSYSTEM',
        repo: null,
        events: [
          { kind: 'introduced', version: '2.3.0' },
          { kind: 'fixed', version: '2.31.0' },
        ],
      },
    ]);
    // The unusable record is reported, not fatal.
    expect(report.errors).toEqual([
      {
        source: `${jsonl}#6`,
        line: null,
        message: 'advisory broken rejected: modified: missing or not an RFC 3339 timestamp',
      },
    ]);
  });

  it('reads directories of .json files and OSV all.zip exports to the same findings', () => {
    const fromLines = findings(audit(project, '--osv', jsonl, '--json').stdout);
    const fromDir = audit(project, '--osv', dir, '--json');
    const fromZip = audit(project, '--osv', zip, '--json');
    expect(fromDir.code).toBe(1);
    expect(fromZip.code).toBe(1);
    expect(findings(fromDir.stdout)).toEqual(fromLines);
    expect(findings(fromZip.stdout)).toEqual(fromLines);
  });

  it.each([
    ['critical', 1],
    ['high', 1],
    ['any', 1],
  ])('--fail-on %s with a critical finding exits %i', (level, expected) => {
    expect(audit(project, '--osv', jsonl, '--fail-on', level, '--json').code).toBe(expected);
  });

  it('--fail-on counts only affected findings at or above the level', () => {
    const onlyNpm = join(root, 'project', 'package-lock.json');
    // lodash is high: fails at high, passes at critical.
    expect(audit(onlyNpm, '--osv', jsonl, '--fail-on', 'high').code).toBe(1);
    expect(audit(onlyNpm, '--osv', jsonl, '--fail-on', 'critical').code).toBe(0);
    // requests is only possibly affected (unpinned): never fails the run.
    expect(audit(join(project, 'requirements.txt'), '--osv', jsonl).code).toBe(0);
  });

  it('exits 0 when nothing is affected', () => {
    const { code, stdout } = audit(clean, '--osv', jsonl, '--json');
    expect(code).toBe(0);
    expect(findings(stdout)).toEqual([]);
  });

  it('exits 3 for a malicious package, whatever --fail-on says, and lists it apart', () => {
    const malicious = join(root, 'malicious');
    mkdirSync(malicious, { recursive: true });
    writeFileSync(join(malicious, 'requirements.txt'), 'reqeusts-toolbelt2==0.1.1\nrequests\n');
    const records = join(
      projectRoot,
      'src',
      'intel',
      'osv',
      '__fixtures__',
      'malicious-test-records.jsonl',
    );
    const json = audit(
      malicious,
      '--osv',
      records,
      '--osv',
      jsonl,
      '--fail-on',
      'critical',
      '--json',
    );
    expect(json.code).toBe(3);
    const found = JSON.parse(json.stdout).findings as {
      kind: string;
      name: string;
      severity: string;
    }[];
    expect(found.filter((f) => f.kind === 'malicious').map((f) => [f.name, f.severity])).toEqual([
      ['reqeusts-toolbelt2', 'critical'],
    ]);
    const text = audit(malicious, '--osv', records, '--osv', jsonl).stdout;
    expect(text).toMatch(/MALICIOUS PACKAGE\s+VERSION\s+ADVISORY\s+STATUS\s+FILE/);
    expect(text).toMatch(
      /reqeusts-toolbelt2\s+0\.1\.1\s+MAL-2026-90002\s+installed\s+requirements\.txt:1/,
    );
    expect(text).toContain('1 MALICIOUS, 0 affected, 1 possibly affected');
  });

  it('prints a readable table without --json', () => {
    const { stdout } = audit(project, '--osv', jsonl);
    expect(stdout).toContain('package-lock.json');
    expect(stdout).toMatch(
      /PACKAGE\s+VERSION\s+VULNERABILITY\s+SEVERITY\s+STATUS\s+FIXED IN\s+SUMMARY/,
    );
    expect(stdout).toMatch(
      /lodash\s+4\.17\.11\s+CVE-2019-10744\s+high 7\.5\s+affected\s+4\.17\.12/,
    );
    expect(stdout).toMatch(/requests\s+\(unpinned\)\s+PYSEC-2023-74\s+medium\s+possibly affected/);
    expect(stdout).toContain('2 affected, 1 possibly affected');
  });

  it.each<[string, string[], RegExp]>([
    ['no --osv', [], /no advisories given/],
    ['an unknown --fail-on', ['--osv', 'x', '--fail-on', 'severe'], /--fail-on must be one of/],
    ['an unknown option', ['--osv', 'x', '--bogus'], /Unknown option/],
  ])('exits 2 on %s', (_label, args, message) => {
    const { code, stderr } = audit(project, ...args);
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
  });

  it('exits 2 when the target or an advisory path cannot be read', () => {
    expect(audit(join(root, 'missing'), '--osv', jsonl).code).toBe(2);
    const badOsv = audit(project, '--osv', join(root, 'nope.jsonl'), '--json');
    expect(badOsv.code).toBe(2);
    expect(JSON.parse(badOsv.stdout).errors[0].message).toMatch(/cannot read \(ENOENT\)/);
  });
});

describe('driftwatch audit: bundled start and advisory index', () => {
  const bundleDir = join(projectRoot, 'node_modules', '.cache', 'driftwatch');

  it('the bundle, the TypeScript sources, cached and uncached runs print the same report', () => {
    const cache = join(root, 'index-cache');
    const args = [project, '--osv', jsonl, '--json', '--cache-dir', cache];
    const first = audit(...args);
    expect(first.code).toBe(1);
    expect(readdirSync(cache).filter((n) => n.endsWith('.idx'))).toHaveLength(1);
    expect(existsSync(join(bundleDir, 'offline.manifest.json'))).toBe(true);
    const cached = audit(...args);
    const sources = auditWith({ DRIFTWATCH_NO_BUNDLE: '1' }, ...args);
    const uncached = audit(project, '--osv', jsonl, '--json', '--no-cache');
    for (const other of [cached, sources, uncached]) {
      expect(other.code).toBe(1);
      expect(other.stdout).toBe(first.stdout);
    }
  });

  it('a changed advisory file is read again, never answered from the old index', () => {
    const cache = join(root, 'index-cache-change');
    const advisories = join(root, 'changing.jsonl');
    writeFileSync(advisories, `${JSON.stringify(RECORDS.goWeb)}\n`);
    const before = audit(project, '--osv', advisories, '--json', '--cache-dir', cache);
    expect(findings(before.stdout).map((f) => f.name)).toEqual(['github.com/example/web']);
    writeFileSync(
      advisories,
      `${JSON.stringify(RECORDS.goWeb)}\n${JSON.stringify(RECORDS.ghsaLodash)}\n`,
    );
    const after = audit(project, '--osv', advisories, '--json', '--cache-dir', cache);
    expect(
      findings(after.stdout)
        .map((f) => f.name)
        .sort(),
    ).toEqual(['github.com/example/web', 'lodash']);
  });

  it('a damaged bundle manifest or code cache is rebuilt, not trusted', () => {
    const expected = audit(project, '--osv', jsonl, '--json', '--no-cache');
    writeFileSync(join(bundleDir, 'offline.v8cache'), 'not a code cache');
    expect(audit(project, '--osv', jsonl, '--json', '--no-cache').stdout).toBe(expected.stdout);
    writeFileSync(join(bundleDir, 'offline.manifest.json'), '{"format":1,"inputs":[["x",1,1]]');
    expect(audit(project, '--osv', jsonl, '--json', '--no-cache').stdout).toBe(expected.stdout);
    writeFileSync(join(bundleDir, 'offline.manifest.json'), '{"format":1,"inputs":[5]}');
    expect(audit(project, '--osv', jsonl, '--json', '--no-cache').stdout).toBe(expected.stdout);
    expect(
      JSON.parse(readFileSync(join(bundleDir, 'offline.manifest.json'), 'utf8')).inputs[0],
    ).toEqual(expect.any(Array));
    // A truncated bundle under a manifest that still matches its inputs is rebuilt too.
    writeFileSync(join(bundleDir, 'offline.cjs'), 'module.exports = (');
    expect(audit(project, '--osv', jsonl, '--json', '--no-cache').stdout).toBe(expected.stdout);
    expect(readFileSync(join(bundleDir, 'offline.cjs'), 'utf8').length).toBeGreaterThan(100_000);
    expect(
      JSON.parse(readFileSync(join(bundleDir, 'offline.manifest.json'), 'utf8')),
    ).toMatchObject({ format: 1, node: process.version });
  });
});
