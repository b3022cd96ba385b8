import type { ImportSummary } from '../../src/intel/advisory-store/import';
import type { CommandOptions } from '../command';
import { absoluteSource, withDatabase } from '../database';
import { UsageError } from '../errors';
import { parseImportArgs } from '../import-args';
import { terminalProgress } from '../progress';

const USAGE = `Usage: driftwatch admin import-osv <file-or-dir-or-url> [...] [--json]

Loads OSV advisories into the advisory store: a JSON record, a JSON array, JSON Lines, a zip
export (one record per entry), a directory of those, or an http(s) URL serving one of them.
Importing the same data again changes nothing; a newer "modified" replaces a record.
Repositories already scanned are re-matched by the workers of a running service.
Exit code 1 when a source fails, or when nothing of it was imported and something was rejected.
Uses the same database as the server: through the running service when one owns the embedded
data directory, else the directory itself (DATA_DIR), or DATABASE_URL.`;

function summaryLine(target: string, summary: ImportSummary): string {
  return (
    `${target}: ${summary.read} read, ${summary.added} added, ${summary.updated} updated, ` +
    `${summary.unchanged} unchanged, ${summary.rejected} rejected, ` +
    `${summary.notAdvisories} not advisories (skipped); ` +
    `${summary.changedVulnerabilities} vulnerabilities changed, ` +
    `${summary.tenantsNotified} tenants queued for re-matching`
  );
}

/** `driftwatch admin import-osv <file-or-dir-or-url> [...]` */
export async function run(argv: string[], _options?: CommandOptions): Promise<number> {
  const { positionals, json, help } = parseImportArgs('import-osv', argv);
  if (help) {
    console.log(USAGE);
    return 0;
  }
  if (positionals.length === 0) {
    throw new UsageError(
      'import-osv needs a file, directory or URL',
      'driftwatch admin import-osv --help',
    );
  }
  let failed = false;
  const results: object[] = [];
  await withDatabase(async (perform) => {
    for (const target of positionals) {
      const progress = terminalProgress();
      try {
        progress.show(`importing ${target} …`);
        const summary = await perform('import-osv', { source: absoluteSource(target) }).finally(
          () => progress.stop(),
        );
        results.push({ source: target, ...summary });
        // Everything refused, nothing kept (a README given by mistake): that is not a success.
        const kept = summary.added + summary.updated + summary.unchanged;
        if (kept === 0 && summary.rejected > 0) failed = true;
        if (json) continue;
        console.log(summaryLine(target, summary));
        for (const rejection of summary.rejections.slice(0, 10)) {
          console.error(`  rejected ${rejection.source}: ${rejection.reasons.join('; ')}`);
        }
        for (const skipped of summary.notAdvisoryDocuments.slice(0, 10)) {
          console.error(`  skipped ${skipped.source}: ${skipped.reason}`);
        }
        if (kept === 0 && summary.rejected > 0) {
          console.error(`${target}: nothing imported, every record was rejected: is it OSV data?`);
        }
      } catch (error) {
        // One source failing (a missing file, a feed that does not answer) leaves the others.
        failed = true;
        const message = (error as Error).message ?? String(error);
        results.push({ source: target, error: message });
        if (!json) console.error(`${target}: ${message}`);
      }
    }
  });
  if (json) console.log(JSON.stringify({ results }, null, 2));
  return failed ? 1 : 0;
}
