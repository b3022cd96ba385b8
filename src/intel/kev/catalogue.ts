import { readFile, stat } from 'node:fs/promises';
import { type Kysely, sql } from 'kysely';
import { isStorableText } from '../../core/storable-text';
import { newId } from '../../db/ids';
import type { DB } from '../../db/schema';

/**
 * The known-exploited list (docs/cra.md#known-exploited-vulnerabilities): a file in the format of
 * the CISA KEV catalogue, imported by the operator. Shared by every tenant, like the advisory
 * store: this is the catalogue; what it means for tenants' CRA products is the cra domain's
 * (domains/cra/findings/kev.ts). The whole file is checked before anything is written: one bad entry
 * refuses the import.
 */
export class KevInputError extends Error {}

export const MAX_KEV_FILE_BYTES = 64 * 1024 * 1024;
const MAX_ENTRIES = 200_000;
const MAX_TEXT = 10_000;
const CVE = /^CVE-\d{4}-\d{4,7}$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

export interface KevEntry {
  cveId: string;
  vendorProject: string;
  product: string;
  vulnerabilityName: string | null;
  dateAdded: string;
  shortDescription: string | null;
  requiredAction: string | null;
  dueDate: string | null;
  knownRansomwareCampaignUse: string | null;
  notes: string | null;
  cwes: string[];
}

export interface KevCatalogue {
  catalogVersion: string;
  dateReleased: Date;
  entries: KevEntry[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const storable = isStorableText;

function validDate(value: string): boolean {
  if (!DATE.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}

type Problems = string[];

function text(
  entry: Record<string, unknown>,
  field: string,
  where: string,
  problems: Problems,
  required: boolean,
): string | null {
  const value = entry[field];
  if (value === undefined || value === null || value === '') {
    if (required) problems.push(`${where}.${field} is required`);
    return null;
  }
  if (typeof value !== 'string') {
    problems.push(`${where}.${field} must be a string`);
    return null;
  }
  if (value.length > MAX_TEXT || !storable(value)) {
    problems.push(`${where}.${field} is too long or holds characters that cannot be stored`);
    return null;
  }
  return value.trim();
}

function date(
  entry: Record<string, unknown>,
  field: string,
  where: string,
  problems: Problems,
  required: boolean,
): string | null {
  const value = text(entry, field, where, problems, required);
  if (value !== null && !validDate(value)) {
    problems.push(`${where}.${field} must be a date YYYY-MM-DD`);
    return null;
  }
  return value;
}

function cwesOf(value: unknown, where: string, problems: Problems): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.length > 100) {
    problems.push(`${where}.cwes must be an array of at most 100 strings`);
    return [];
  }
  const cwes = value.filter((cwe): cwe is string => typeof cwe === 'string' && cwe.length <= 50);
  if (cwes.length !== value.length || !cwes.every(storable)) {
    problems.push(`${where}.cwes must be an array of short strings`);
  }
  return cwes;
}

function entryOf(raw: unknown, index: number, problems: Problems): KevEntry | null {
  const where = `vulnerabilities[${index}]`;
  if (!isRecord(raw)) {
    problems.push(`${where} must be an object`);
    return null;
  }
  const before = problems.length;
  const cveId = text(raw, 'cveID', where, problems, true);
  if (cveId !== null && !CVE.test(cveId))
    problems.push(`${where}.cveID must look like CVE-2024-12345`);
  const entry: KevEntry = {
    cveId: cveId ?? '',
    vendorProject: text(raw, 'vendorProject', where, problems, true) ?? '',
    product: text(raw, 'product', where, problems, true) ?? '',
    vulnerabilityName: text(raw, 'vulnerabilityName', where, problems, false),
    dateAdded: date(raw, 'dateAdded', where, problems, true) ?? '',
    shortDescription: text(raw, 'shortDescription', where, problems, false),
    requiredAction: text(raw, 'requiredAction', where, problems, false),
    dueDate: date(raw, 'dueDate', where, problems, false),
    knownRansomwareCampaignUse: text(raw, 'knownRansomwareCampaignUse', where, problems, false),
    notes: text(raw, 'notes', where, problems, false),
    cwes: cwesOf(raw.cwes, where, problems),
  };
  return problems.length === before ? entry : null;
}

function header(document: Record<string, unknown>, problems: Problems) {
  const version = document.catalogVersion;
  if (
    typeof version !== 'string' ||
    version.trim() === '' ||
    version.length > 100 ||
    !storable(version)
  ) {
    problems.push('catalogVersion must be a non-empty string of at most 100 characters');
  }
  const released = document.dateReleased;
  const dateReleased = typeof released === 'string' ? new Date(released) : new Date(Number.NaN);
  if (
    typeof released !== 'string' ||
    released.length > 40 ||
    Number.isNaN(dateReleased.getTime())
  ) {
    problems.push('dateReleased must be a date-time');
  }
  return { catalogVersion: typeof version === 'string' ? version.trim() : '', dateReleased };
}

/** Checks a KEV catalogue document whole; every problem found (the first 5) in one line. */
export function parseKevCatalogue(document: unknown): KevCatalogue {
  if (!isRecord(document))
    throw new KevInputError('not a KEV catalogue: the JSON is not an object');
  if (!Array.isArray(document.vulnerabilities)) {
    throw new KevInputError('not a KEV catalogue: "vulnerabilities" is not an array');
  }
  const problems: Problems = [];
  const { catalogVersion, dateReleased } = header(document, problems);
  const raw = document.vulnerabilities;
  if (raw.length > MAX_ENTRIES) problems.push(`more than ${MAX_ENTRIES} vulnerabilities`);
  const entries: KevEntry[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < raw.length && problems.length < 5; i++) {
    const entry = entryOf(raw[i], i, problems);
    if (!entry) continue;
    if (seen.has(entry.cveId))
      problems.push(`vulnerabilities[${i}].cveID ${entry.cveId} is listed twice`);
    seen.add(entry.cveId);
    entries.push(entry);
  }
  if (problems.length > 0) {
    throw new KevInputError(`not a valid KEV catalogue: ${problems.slice(0, 5).join('; ')}`);
  }
  return { catalogVersion, dateReleased, entries };
}

/** Reads and checks a KEV catalogue file (a regular file, at most 64 MiB of JSON). */
export async function readKevFile(path: string): Promise<KevCatalogue> {
  const info = await stat(path).catch(() => {
    throw new KevInputError(`cannot read ${path}: no such file`);
  });
  if (!info.isFile()) throw new KevInputError(`${path} is not a regular file`);
  if (info.size > MAX_KEV_FILE_BYTES) {
    throw new KevInputError(`${path} is larger than ${MAX_KEV_FILE_BYTES / 1024 / 1024} MiB`);
  }
  let document: unknown;
  try {
    document = JSON.parse(await readFile(path, 'utf8'));
  } catch {
    throw new KevInputError(`${path} is not JSON`);
  }
  return parseKevCatalogue(document);
}

function row(entry: KevEntry, catalogVersion: string) {
  return {
    cve_id: entry.cveId,
    vendor_project: entry.vendorProject,
    product: entry.product,
    vulnerability_name: entry.vulnerabilityName,
    date_added: entry.dateAdded,
    short_description: entry.shortDescription,
    required_action: entry.requiredAction,
    due_date: entry.dueDate,
    known_ransomware_campaign_use: entry.knownRansomwareCampaignUse,
    notes: entry.notes,
    cwes: entry.cwes,
    catalog_version: catalogVersion,
  };
}

const COMPARED = [
  'vendor_project',
  'product',
  'vulnerability_name',
  'date_added',
  'short_description',
  'required_action',
  'due_date',
  'known_ransomware_campaign_use',
  'notes',
  'cwes',
] as const;

/** Upserts the entries; returns how many were added and how many changed. */
async function storeEntries(trx: Kysely<DB>, catalogue: KevCatalogue) {
  let added = 0;
  let updated = 0;
  const changed = sql<boolean>`(${sql.join(COMPARED.map((c) => sql.ref(`known_exploited_vulnerabilities.${c}`)))})
    IS DISTINCT FROM (${sql.join(COMPARED.map((c) => sql.ref(`excluded.${c}`)))})`;
  for (let i = 0; i < catalogue.entries.length; i += 500) {
    const batch = catalogue.entries.slice(i, i + 500).map((e) => row(e, catalogue.catalogVersion));
    const written = await trx
      .insertInto('known_exploited_vulnerabilities')
      .values(batch)
      .onConflict((oc) =>
        oc
          .column('cve_id')
          .doUpdateSet((eb) => ({
            ...Object.fromEntries(COMPARED.map((c) => [c, eb.ref(`excluded.${c}`)])),
            catalog_version: eb.ref('excluded.catalog_version'),
            updated_at: sql<Date>`now()`,
          }))
          .where(changed),
      )
      .returning(sql<boolean>`(xmax = 0)`.as('inserted'))
      .execute();
    for (const r of written) r.inserted ? added++ : updated++;
  }
  return { added, updated };
}

/** How one import changed the stored catalogue. */
export interface KevStoreResult {
  added: number;
  updated: number;
}

/**
 * Writes a checked catalogue in the caller's system transaction: the entries (new ones added,
 * changed ones updated, none removed) and the import record.
 */
export async function storeKevCatalogue(
  trx: Kysely<DB>,
  catalogue: KevCatalogue,
  source: string,
): Promise<KevStoreResult> {
  const { added, updated } = await storeEntries(trx, catalogue);
  await trx
    .insertInto('known_exploited_imports')
    .values({
      id: newId(),
      catalog_version: catalogue.catalogVersion,
      date_released: catalogue.dateReleased,
      entries: catalogue.entries.length,
      added,
      updated,
      source,
    })
    .execute();
  return { added, updated };
}
