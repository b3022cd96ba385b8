import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type ExtractedFile, extractFiles } from '../../src/ecosystems/extract-tree';
import { auditExtraction, prepareAdvisories } from '../../src/intel/osv/audit';
import { parseOsvText } from '../../src/intel/osv/parse';
import {
  type AuditReportWriter,
  jsonReportWriter,
  streamAudit,
  type TextSink,
  tableReportWriter,
} from './audit-report';

/** An OSV record naming one Packagist package, affected below `fixed`. */
const advisory = (id: string, name: string, fixed: string) => ({
  id,
  modified: '2026-01-01T00:00:00Z',
  summary: `${name} flaw ${id}`,
  aliases: [`CVE-2026-${id.slice(-4)}`],
  affected: [
    {
      package: { ecosystem: 'Packagist', name },
      ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }, { fixed }] }],
    },
  ],
});

const RECORDS = [
  advisory('GHSA-0000-0000-0001', 'symfony/http-kernel', '5.0.0'),
  advisory('GHSA-0000-0000-0002', 'symfony/http-kernel', '6.0.0'),
  advisory('GHSA-0000-0000-0003', 'guzzlehttp/guzzle', '7.0.0'),
];

const MALICIOUS = readFileSync(
  join(
    import.meta.dirname,
    '..',
    '..',
    'src',
    'intel',
    'osv',
    '__fixtures__',
    'malicious-test-records.jsonl',
  ),
  'utf8',
);

function prepared(extra = '') {
  const text = `${RECORDS.map((r) => JSON.stringify(r)).join('\n')}\n${extra}`;
  const parsed = parseOsvText(text, 'test.jsonl');
  expect(parsed.rejected).toEqual([]);
  return prepareAdvisories(parsed.advisories);
}

const composerLock = (versions: Record<string, string>) =>
  JSON.stringify({
    packages: Object.entries(versions).map(([name, version]) => ({ name, version })),
  });

/** `count` vulnerable Composer projects, extracted (a file, then its lock, per directory). */
function projectFiles(count: number, extra: Record<string, string> = {}): ExtractedFile[] {
  const files = new Map<string, string>(Object.entries(extra));
  for (let i = 0; i < count; i++) {
    const dir = `app-${String(i).padStart(3, '0')}`;
    files.set(
      `${dir}/composer.lock`,
      composerLock({ 'symfony/http-kernel': `4.${i % 5}.0`, 'guzzlehttp/guzzle': '6.5.8' }),
    );
  }
  return extractFiles(files).files;
}

/** A sink that keeps every write, as standard output would receive it. */
function recordingSink(): TextSink & { text(): string; writes: number } {
  const chunks: string[] = [];
  return {
    writes: 0,
    async write(text) {
      chunks.push(text);
      this.writes++;
    },
    async flush() {},
    text: () => chunks.join(''),
  };
}

/** The files one at a time, noting what the report held when the last one was asked for. */
async function* observed(
  files: ExtractedFile[],
  sink: ReturnType<typeof recordingSink>,
  seen: { atLast: string | null },
) {
  for (const [i, file] of files.entries()) {
    if (i === files.length - 1) seen.atLast = sink.text();
    yield file;
  }
}

function runStream(
  files: ExtractedFile[],
  writerOf: (sink: TextSink) => AuditReportWriter,
  extra = '',
) {
  const sink = recordingSink();
  const seen: { atLast: string | null } = { atLast: null };
  const advisories = prepared(extra);
  const outcome = streamAudit(observed(files, sink, seen), advisories, writerOf(sink), {
    errors: [],
    advisories: advisories.index.size,
    failOn: 'any',
  });
  return outcome.then((result) => ({ result, sink, seen, advisories }));
}

describe('streamAudit', () => {
  it('--json: the first finding is written before the last file is read, and the document is the whole report', async () => {
    const files = projectFiles(40);
    const { result, sink, seen, advisories } = await runStream(files, jsonReportWriter);
    expect(seen.atLast).toMatch(/^\{\n {2}"findings": \[\n {4}\{\n {6}"kind": "vulnerability"/);
    // Every file but the last was already out when the last one was asked for.
    expect(seen.atLast!.match(/"vulnerabilityId"/g)).toHaveLength(39 * 3);
    const whole = auditExtraction({ files }, advisories);
    expect(sink.text()).toBe(`${JSON.stringify(whole, null, 2)}\n`);
    expect(result).toEqual({ malicious: false, failing: true });
  });

  it('--json with no finding is still the whole report', async () => {
    const files = extractFiles(
      new Map([['composer.lock', composerLock({ 'psr/log': '3.0.0' })]]),
    ).files;
    const { sink, advisories } = await runStream(files, jsonReportWriter);
    expect(sink.text()).toBe(
      `${JSON.stringify(auditExtraction({ files }, advisories), null, 2)}\n`,
    );
  });

  it('the table writes each file section as it comes when no malicious record is loaded', async () => {
    const { sink, seen } = await runStream(projectFiles(10), (out) =>
      tableReportWriter(out, false),
    );
    expect(seen.atLast).toContain('app-000/composer.lock\n  PACKAGE');
    expect(seen.atLast).not.toContain('app-009/composer.lock');
    expect(sink.text()).toMatch(/app-009\/composer\.lock\n {2}PACKAGE/);
    expect(sink.text().trimEnd().split('\n').at(-1)).toBe(
      '30 affected, 0 possibly affected; 20 dependencies in 10 files; 3 advisories read (3 vulnerabilities name these packages); 0 errors',
    );
  });

  it('the table puts a malicious package found in the last file first, the sections spooled meanwhile', async () => {
    const files = projectFiles(5, { 'zz/requirements.txt': 'reqeusts-toolbelt2==0.1.1\n' });
    const { result, sink, seen } = await runStream(
      files,
      (out) => tableReportWriter(out, true),
      MALICIOUS,
    );
    expect(seen.atLast).toBe('');
    const text = sink.text();
    expect(text.indexOf('MALICIOUS PACKAGE')).toBe(0);
    expect(text).toMatch(
      /reqeusts-toolbelt2\s+0\.1\.1\s+MAL-2026-90002\s+installed\s+zz\/requirements\.txt:1/,
    );
    expect(text.indexOf('app-000/composer.lock')).toBeGreaterThan(text.indexOf('MAL-2026-90002'));
    expect(text).toContain('1 MALICIOUS, 15 affected, 0 possibly affected');
    expect(result.malicious).toBe(true);
  });
});

describe('the FIXED IN column', () => {
  const laravel = {
    id: 'GHSA-0000-0000-0009',
    modified: '2026-01-01T00:00:00Z',
    summary: 'laravel/framework flaw',
    affected: [
      {
        package: { ecosystem: 'Packagist', name: 'laravel/framework' },
        ranges: [
          ['0', '6.20.45'],
          ['7.0.0', '7.30.7'],
          ['8.0.0', '8.83.28'],
          ['9.0.0', '9.52.17'],
          ['10.0.0', '10.48.23'],
          ['11.0.0', '11.31.0'],
        ].map(([introduced, fixed]) => ({
          type: 'ECOSYSTEM',
          events: [{ introduced }, { fixed }],
        })),
      },
    ],
  };

  it('shows the fix that applies to the installed version first, never the lower lines', async () => {
    const files = extractFiles(
      new Map([['composer.lock', composerLock({ 'laravel/framework': '10.48.22' })]]),
    ).files;
    const { sink } = await runStream(
      files,
      (out) => tableReportWriter(out, false),
      JSON.stringify(laravel),
    );
    const row = sink
      .text()
      .split('\n')
      .find((line) => line.includes('laravel/framework'));
    expect(row).toMatch(/GHSA-0000-0000-0009\s+-\s+affected\s+10\.48\.23, 11\.31\.0\s+laravel/);
    expect(row).not.toContain('6.20.45');
  });
});
