import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../../src/config';
import { requestRematch } from '../../src/domains/exposures/rematch-request';
import { importPath } from '../../src/intel/advisory-store/import';
import { FeedError, importFromUrl } from '../../src/intel/advisory-store/sync';
import { openServiceDatabase } from '../../src/service';

const USAGE = `Usage: driftwatch admin import-osv <file-or-dir-or-url> [...] [--json]

Loads OSV advisories into the advisory store: a JSON record, a JSON array, JSON Lines, a zip
export (one record per entry), a directory of those, or an http(s) URL serving one of them.
Importing the same data again changes nothing; a newer "modified" replaces a record.
Repositories already scanned are re-matched by the workers of a running service.
Uses the same configuration as the server (DATABASE_URL or the embedded DATA_DIR).`;

/** `driftwatch admin import-osv <file-or-dir-or-url> [...]` */
export async function run(argv: string[]): Promise<number> {
  let positionals: string[];
  let json = false;
  try {
    const parsed = parseArgs({
      args: argv,
      options: { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
    positionals = parsed.positionals;
    json = parsed.values.json === true;
    if (parsed.values.help) {
      console.log(USAGE);
      return 0;
    }
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (positionals.length === 0) {
    console.error(USAGE);
    return 2;
  }
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      return 2;
    }
    throw error;
  }
  const database = await openServiceDatabase(config);
  let failed = false;
  const results: object[] = [];
  try {
    for (const target of positionals) {
      try {
        const summary = /^https?:\/\//i.test(target)
          ? await importFromUrl(database, target, requestRematch)
          : await importPath(database, target, requestRematch);
        results.push({ source: target, ...summary });
        if (!json) {
          console.log(
            `${target}: ${summary.read} read, ${summary.added} added, ${summary.updated} updated, ` +
              `${summary.unchanged} unchanged, ${summary.rejected} rejected, ` +
              `${summary.notAdvisories} not advisories (skipped); ` +
              `${summary.changedVulnerabilities} vulnerabilities changed, ` +
              `${summary.tenantsNotified} tenants queued for re-matching`,
          );
          for (const rejection of summary.rejections.slice(0, 10)) {
            console.error(`  rejected ${rejection.source}: ${rejection.reasons.join('; ')}`);
          }
          for (const skipped of summary.notAdvisoryDocuments.slice(0, 10)) {
            console.error(`  skipped ${skipped.source}: ${skipped.reason}`);
          }
        }
      } catch (error) {
        failed = true;
        const message =
          error instanceof FeedError || (error as NodeJS.ErrnoException).code
            ? (error as Error).message
            : String(error);
        results.push({ source: target, error: message });
        if (!json) console.error(`${target}: ${message}`);
      }
    }
  } finally {
    await database.close();
  }
  if (json) console.log(JSON.stringify({ results }, null, 2));
  return failed ? 1 : 0;
}
