import type { Database } from '../../../db/connection';
import { type KevCatalogue, readKevFile, storeKevCatalogue } from '../../../intel/kev/catalogue';
import { detectExploitations } from './exploitation';

/**
 * Importing the known-exploited list (docs/cra.md#known-exploited-vulnerabilities): the catalogue
 * is intel's (intel/kev); this domain adds what it means for tenants' CRA products.
 */
export interface KevImportSummary {
  source: string;
  catalogVersion: string;
  dateReleased: string;
  entries: number;
  added: number;
  updated: number;
  unchanged: number;
  /** Products newly found actively exploited (one `cra.actively_exploited` event each). */
  exploitationsDetected: number;
}

/**
 * Writes a checked catalogue in one system transaction: the entries and the import record
 * (intel/kev), and for every tenant's product that has one of its vulnerabilities the
 * exploitation record and its `cra.actively_exploited` event.
 */
export async function importKevCatalogue(
  database: Database,
  catalogue: KevCatalogue,
  source: string,
): Promise<KevImportSummary> {
  return database.system.transaction().execute(async (trx) => {
    const { added, updated } = await storeKevCatalogue(trx, catalogue, source);
    const exploitationsDetected =
      catalogue.entries.length === 0
        ? 0
        : await detectExploitations(trx, { cveIds: catalogue.entries.map((e) => e.cveId) });
    return {
      source,
      catalogVersion: catalogue.catalogVersion,
      dateReleased: catalogue.dateReleased.toISOString(),
      entries: catalogue.entries.length,
      added,
      updated,
      unchanged: catalogue.entries.length - added - updated,
      exploitationsDetected,
    };
  });
}

/** Reads, checks and imports a KEV catalogue file (the operator's `import-kev`). */
export async function importKevFile(database: Database, path: string): Promise<KevImportSummary> {
  return importKevCatalogue(database, await readKevFile(path), path);
}
