/**
 * Test helpers: realistic OSV records (shape of GHSA / PyPA / NVD-derived records) built in the
 * test, and the rows they produce. Not used by the service.
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
