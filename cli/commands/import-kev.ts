import type { KevImportSummary } from '../../src/domains/cra/findings/kev';
import type { CommandOptions } from '../command';
import { absoluteSource, withDatabase } from '../database';
import { UsageError } from '../errors';
import { parseImportArgs } from '../import-args';

const USAGE = `Usage: driftwatch admin import-kev <file> [--json]

Loads a known-exploited vulnerabilities list in the CISA KEV catalogue format (a JSON object with
catalogVersion, dateReleased and vulnerabilities[] of cveID, vendorProject, product, dateAdded,
dueDate, knownRansomwareCampaignUse ...) into the service's known-exploited list (docs/cra.md).
The whole file is checked first: one invalid entry refuses the import and nothing is written.
New entries are added, changed ones updated, none removed. Every CRA product with one of the
listed vulnerabilities is marked actively exploited (once per product and vulnerability).
Uses the same database as the server, like import-osv.`;

function summaryLine(target: string, s: KevImportSummary): string {
  return (
    `${target}: catalogue ${s.catalogVersion} (released ${s.dateReleased}), ${s.entries} entries: ` +
    `${s.added} added, ${s.updated} updated, ${s.unchanged} unchanged; ` +
    `${s.exploitationsDetected} product vulnerabilities newly actively exploited`
  );
}

/** `driftwatch admin import-kev <file>` */
export async function run(argv: string[], _options?: CommandOptions): Promise<number> {
  const { positionals, json, help } = parseImportArgs('import-kev', argv);
  if (help) {
    console.log(USAGE);
    return 0;
  }
  const [target, ...extra] = positionals;
  if (target === undefined || extra.length > 0) {
    throw new UsageError('import-kev needs exactly one file', 'driftwatch admin import-kev --help');
  }
  try {
    const summary = await withDatabase((perform) =>
      perform('import-kev', { source: absoluteSource(target) }),
    );
    console.log(json ? JSON.stringify(summary, null, 2) : summaryLine(target, summary));
    return 0;
  } catch (error) {
    // One line: what was wrong with the file (or the service's answer), no stack trace.
    const message = ((error as Error).message ?? String(error)).split('\n')[0];
    if (json) console.log(JSON.stringify({ source: target, error: message }, null, 2));
    else console.error(`${target}: ${message}`);
    return 1;
  }
}
