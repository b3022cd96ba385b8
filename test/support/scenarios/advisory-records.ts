import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Advisory records built in the test: realistic OSV records (shape of GHSA / PyPA / NVD-derived
 * records), KEV catalogue entries and the malicious-package fixture records. Pure data, no
 * database: unit-tier tests and the benches import this file directly (the scenarios index pulls
 * in the test app, which would move a test into the database tier).
 */
export interface RecordOptions {
  id: string;
  modified?: string;
  published?: string;
  withdrawn?: string;
  aliases?: string[];
  summary?: string;
  severity?: string;
  databaseSeverity?: string;
  affected?: Array<{
    ecosystem: string;
    name: string;
    ranges?: Array<{ type: string; events: Record<string, string>[] }>;
    versions?: string[];
  }>;
}

export function osvRecord(options: RecordOptions): Record<string, unknown> {
  const record: Record<string, unknown> = {
    schema_version: '1.6.0',
    id: options.id,
    modified: options.modified ?? '2024-01-01T00:00:00Z',
    published: options.published ?? '2023-12-01T00:00:00Z',
    aliases: options.aliases ?? [],
    summary: options.summary ?? `Flaw ${options.id}`,
    details: `Details of ${options.id}.`,
    affected: (options.affected ?? []).map((a) => ({
      package: { ecosystem: a.ecosystem, name: a.name },
      ranges: a.ranges ?? [],
      ...(a.versions ? { versions: a.versions } : {}),
    })),
    references: [{ type: 'ADVISORY', url: `https://advisories.example.test/${options.id}` }],
  };
  if (options.withdrawn) record.withdrawn = options.withdrawn;
  if (options.severity) record.severity = [{ type: 'CVSS_V3', score: options.severity }];
  if (options.databaseSeverity) record.database_specific = { severity: options.databaseSeverity };
  return record;
}

export const jsonl = (records: object[]) => `${records.map((r) => JSON.stringify(r)).join('\n')}\n`;

/** An npm `affected` entry: introduced → fixed. */
export const npmRange = (name: string, introduced: string, fixed?: string) => ({
  ecosystem: 'npm',
  name,
  ranges: [
    {
      type: 'SEMVER',
      events: (fixed ? [{ introduced }, { fixed }] : [{ introduced }]) as Record<string, string>[],
    },
  ],
});

/** A KEV catalogue entry as CISA publishes them (the values are made up for tests). */
export function kevEntry(cveID: string, fields: Record<string, unknown> = {}) {
  return {
    cveID,
    vendorProject: 'Example Vendor',
    product: 'Example Product',
    vulnerabilityName: `Example Vendor ${cveID} flaw`,
    dateAdded: '2026-03-02',
    shortDescription: 'A made-up entry for tests.',
    requiredAction: 'Apply mitigations per vendor instructions.',
    dueDate: '2026-03-23',
    knownRansomwareCampaignUse: 'Unknown',
    notes: '',
    cwes: ['CWE-787'],
    ...fields,
  };
}

/** A KEV catalogue document with these entries. */
export function kevCatalogue(entries: unknown[], catalogVersion = '2026.03.02') {
  return {
    title: 'Test Known Exploited Vulnerabilities Catalog',
    catalogVersion,
    dateReleased: '2026-03-02T15:00:00.000Z',
    count: entries.length,
    vulnerabilities: entries,
  };
}

/** The OSV malicious-package records of src/intel/osv/__fixtures__ (MAL- ids), parsed. */
export function maliciousTestRecords(): Record<string, unknown>[] {
  const path = join(
    import.meta.dirname,
    '../../../src/intel/osv/__fixtures__/malicious-test-records.jsonl',
  );
  return readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}
