import { describe, expect, it } from 'vitest';
import { extractFiles } from '../../ecosystems/extract-tree';
import { auditExtraction, prepareAdvisories } from './audit';
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
