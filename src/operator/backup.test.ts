import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  createCraProduct,
  createPolicy,
  createTestApp,
  importJsonl,
  npmRange,
  osvRecord,
  scanWith,
  storeScan,
  type TestApp,
  type TestTenant,
  twoTenantsWithRepositories,
} from '../../test/support/scenarios';
import { createScratchDatabase } from '../../test/support/service-process';
import { type CatalogueTable, readCatalogue } from '../../test/support/shard-readiness';
import { closingAlso, openTestDatabase } from '../../test/support/test-app';
import { tenantRowCounts } from '../../test/support/workspace';
import { type Database, openDatabase } from '../db/connection';
import { migrate } from '../db/migrate';
import { listTenantTables } from '../domains/tenants/catalogue';
import { createSecretBox, masterKeyFingerprint } from '../security/secret-box';
import {
  type BackupSummary,
  backupEmbedded,
  backupPostgres,
  type RestoreTarget,
  readBackupHeader,
  restoreBackup,
} from './backup';
import { findPgTools } from './pg-tools';

/**
 * The backup round trip (docs/scaling.md#backups) on the engine under test: a tenant with data
 * across the tenant tables and sealed secrets, backed up, restored into a new data directory (or
 * a new PostgreSQL database), read back row for row, its secrets opened with the same key, its
 * token still working; and the refusals: no key, another key, a damaged file.
 */
const serverUrl = process.env.TEST_DATABASE_URL ?? null;
const KEY = randomBytes(32).toString('base64');
const work = mkdtempSync(join(tmpdir(), 'driftwatch-backup-test-'));
const cleanups: Array<() => Promise<void> | void> = [() => rmSync(work, { recursive: true })];

let t: TestApp;
let a: TestTenant;
let sourceUrl: string | null = null;
let integration: { id: string; secret: string };

/** A new, empty target for a restore on this engine, and how to open it afterwards. */
async function newTarget(): Promise<{ target: RestoreTarget; open: () => Promise<Database> }> {
  if (!serverUrl) {
    const dataDir = mkdtempSync(join(work, 'data-'));
    return {
      target: { engine: 'embedded', dataDir },
      open: () => openDatabase({ url: null, dataDir, poolSize: 1 }),
    };
  }
  // No template: a database with no table at all.
  const scratch = await createScratchDatabase(serverUrl);
  cleanups.push(scratch.drop);
  const isEmpty = async () => {
    const probe = await openDatabase({ url: scratch.url, dataDir: null, poolSize: 1 });
    try {
      const { rows } = await probe.pool.query(
        "SELECT 1 FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema')",
      );
      return rows.length === 0;
    } finally {
      await probe.close();
    }
  };
  return {
    target: { engine: 'postgres', url: scratch.url, tools: findPgTools(), isEmpty },
    open: () => openDatabase({ url: scratch.url, dataDir: null, poolSize: 2 }),
  };
}

async function backUp(path: string): Promise<BackupSummary> {
  if (!sourceUrl) return backupEmbedded(t.database, path, KEY);
  return backupPostgres(t.database, sourceUrl, path, KEY, findPgTools());
}

/** Every table of the schema with a digest of all its rows, in a stable order. */
async function tableDigests(database: Database): Promise<Record<string, string>> {
  const { rows: tables } = await database.pool.query<{ name: string }>(
    "SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename",
  );
  const digests: Record<string, string> = {};
  for (const { name } of tables) {
    const { rows } = await sql<{ n: string; digest: string | null }>`
      SELECT count(*) AS n, md5(string_agg(r::text, '|' ORDER BY r::text)) AS digest
      FROM ${sql.table(name)} r`.execute(database.system);
    digests[name] = `${rows[0]?.n}:${rows[0]?.digest ?? ''}`;
  }
  return digests;
}

/** A value of `type` for a synthetic row, or null to leave the column to its default. */
function syntheticValue(type: string, allowed: string | null): string | null {
  if (allowed !== null) return `'${allowed.replaceAll("'", "''")}'`;
  if (type.endsWith('[]')) return "'{}'";
  const values: Record<string, string> = {
    uuid: 'gen_random_uuid()',
    text: "'backup-test'",
    'character varying': "'backup-test'",
    integer: '1',
    bigint: '1',
    smallint: '1',
    numeric: '1',
    real: '1',
    'double precision': '1',
    boolean: 'true',
    'timestamp with time zone': 'now()',
    'timestamp without time zone': 'now()',
    date: 'current_date',
    jsonb: "'{}'",
    json: "'{}'",
    bytea: "'\\x01'",
    inet: "'127.0.0.1'",
    interval: "'1 hour'",
  };
  return values[type] ?? null;
}

/**
 * What a multi-column check needs beyond the typed values and the first allowed literal: an
 * expression, or `reference` (the column's foreign key, filled from an existing row).
 */
const CHECK_NEEDS: Record<string, Record<string, string>> = {
  compliance_evidence_archives: { period_start: "now() - interval '1 day'" },
  cra_clocks: { vulnerability_id: 'reference' },
  quantum_certificates: { repository_id: 'reference' },
};

interface FillColumn {
  name: string;
  type: string;
  required: boolean;
  allowed: string | null;
}

const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** Values for the foreign keys of `table` that must be set, from an existing target row. */
async function referenceValues(
  client: pg.PoolClient,
  table: CatalogueTable,
  tenantId: string,
  wanted: (column: string) => boolean,
  tenantTables: ReadonlySet<string>,
): Promise<Map<string, string>> {
  const values = new Map<string, string>();
  for (const fk of table.foreignKeys) {
    const pairs = fk.columns
      .map((column, i) => ({ column, target: fk.targetColumns[i] ?? '' }))
      .filter((pair) => pair.column !== 'tenant_id');
    if (pairs.length === 0 || !pairs.some((pair) => wanted(pair.column))) continue;
    const scope = tenantTables.has(fk.target) ? `WHERE tenant_id = ${literal(tenantId)}` : '';
    const selected = pairs.map((pair) => `"${pair.target}"::text AS "${pair.column}"`).join(', ');
    const { rows } = await client.query(`SELECT ${selected} FROM ${fk.target} ${scope} LIMIT 1`);
    const row: Record<string, string | null> | undefined = rows[0];
    if (!row) throw new Error(`${table.name}: no row in ${fk.target} to reference`);
    for (const pair of pairs) {
      const value = row[pair.column];
      if (value !== null && value !== undefined) values.set(pair.column, literal(value));
    }
  }
  return values;
}

const FILL_COLUMNS = `SELECT a.attname AS name, format_type(a.atttypid, NULL) AS type,
    a.attnotnull AND NOT a.atthasdef AS required,
    (SELECT substring(pg_get_constraintdef(c.oid) FROM '''([^'']*)''')
     FROM pg_constraint c WHERE c.conrelid = a.attrelid AND c.contype = 'c'
       AND c.conkey = ARRAY[a.attnum] LIMIT 1) AS allowed
  FROM pg_attribute a
  WHERE a.attrelid = $1::regclass AND a.attnum > 0 AND NOT a.attisdropped
    AND a.attgenerated = '' AND a.attname <> 'tenant_id'`;

/** The INSERT of one synthetic row of the tenant into `table`. */
async function syntheticInsert(
  client: pg.PoolClient,
  table: CatalogueTable,
  tenantId: string,
  tenantTables: ReadonlySet<string>,
): Promise<string> {
  const { rows: columns } = await client.query<FillColumn>(FILL_COLUMNS, [table.name]);
  const needs = CHECK_NEEDS[table.name] ?? {};
  const required = new Set(columns.filter((c) => c.required).map((c) => c.name));
  const references = await referenceValues(
    client,
    table,
    tenantId,
    (column) => required.has(column) || needs[column] === 'reference',
    tenantTables,
  );
  const chosen = columns.flatMap((column) => {
    const need = needs[column.name];
    const value =
      references.get(column.name) ??
      (need && need !== 'reference'
        ? need
        : column.required || column.allowed !== null
          ? syntheticValue(column.type, column.allowed)
          : null);
    return value ? [{ name: column.name, value }] : [];
  });
  const names = ['tenant_id', ...chosen.map((c) => `"${c.name}"`)].join(', ');
  const values = [literal(tenantId), ...chosen.map((c) => c.value)].join(', ');
  return `INSERT INTO ${table.name} (${names}) VALUES (${values})`;
}

/**
 * One synthetic row of the tenant in every tenant table the scenario left empty, parents first,
 * so the round trip covers every table: typed values, the first literal a one-column check
 * allows, foreign keys pointing at existing rows. Every constraint holds (pg_restore checks them
 * again). Returns the tables it could not fill, with the reason.
 */
async function fillEmptyTables(tenantId: string): Promise<string[]> {
  const counts = await tenantRowCounts(t, tenantId);
  const catalogue = new Map((await readCatalogue(t.database.pool)).map((c) => [c.name, c]));
  const tenantTables = new Set(Object.keys(counts));
  // listTenantTables puts referencing tables first: parents come first in reverse.
  const empty = (await listTenantTables(t.database.system))
    .map((table) => table.name)
    .reverse()
    .filter((name) => counts[name] === 0);
  const client = await t.database.pool.connect();
  const failed: string[] = [];
  try {
    for (const name of empty) {
      const table = catalogue.get(name);
      try {
        if (!table) throw new Error('not in the catalogue');
        await client.query(await syntheticInsert(client, table, tenantId, tenantTables));
      } catch (error) {
        failed.push(`${name}: ${(error as Error).message}`);
      }
    }
  } finally {
    client.release();
  }
  return failed;
}

beforeAll(async () => {
  let database: Database;
  if (serverUrl) {
    const scratch = await createScratchDatabase(serverUrl);
    database = await openDatabase({ url: scratch.url, dataDir: null, poolSize: 4 });
    await migrate(database.pool);
    database = closingAlso(database, scratch.drop);
    sourceUrl = scratch.url;
  } else {
    database = await openTestDatabase();
  }
  t = await createTestApp({}, { database, masterKey: KEY });
  const { a: tenantA, repositories } = await twoTenantsWithRepositories(t, ['web', 'api']);
  a = tenantA;
  const [web = '', api = ''] = repositories;
  await importJsonl(t, [
    osvRecord({ id: 'GHSA-bk00-0001', affected: [npmRange('left-pad', '0', '2.0.0')] }),
  ]);
  await scanWith(t, a.tenantId, web, [{ name: 'left-pad', version: '1.0.0' }], 'all');
  await storeScan(t, a, 'api-store', [{ ecosystem: 'npm', name: 'lodash', version: '4.17.20' }]);
  await createPolicy(t, a.token, { condition: 'vulnerabilities.count > 0' });
  await createCraProduct(t, a.token, { repositoryIds: [api] });
  const created = await t.as(a.token, {
    method: 'POST',
    url: '/api/v1/integrations/webhooks',
    payload: { name: 'Alerts', url: 'https://127.0.0.1:9/driftwatch' },
  });
  expect(created.statusCode, created.body).toBe(201);
  integration = { id: created.json().integrationId, secret: created.json().secret };
  await t.runJobs();
  await t.tokenUsage.flush();
  expect(await fillEmptyTables(a.tenantId)).toEqual([]);
}, 120_000);

afterAll(async () => {
  await t?.close();
  for (const cleanup of cleanups.reverse()) await cleanup();
});

describe(`backup and restore (${serverUrl ? 'PostgreSQL' : 'embedded'})`, () => {
  test('restores every row of every table, and the same key opens the same secrets', async () => {
    const populated = Object.entries(await tenantRowCounts(t, a.tenantId)).filter(([, n]) => n > 0);
    expect(populated.length).toBe(Object.keys(await tenantRowCounts(t, a.tenantId)).length);
    const before = await tableDigests(t.database);

    const path = join(work, 'round-trip.dwbackup');
    const summary = await backUp(path);
    expect(summary.masterKeyFingerprint).toBe(masterKeyFingerprint(KEY));
    expect(readFileSync(path).includes(Buffer.from(KEY))).toBe(false);
    expect(readBackupHeader(path).header.engine).toBe(serverUrl ? 'postgres' : 'embedded');

    const { target, open } = await newTarget();
    await restoreBackup(path, target, KEY);
    const restored = await open();
    try {
      expect(await tableDigests(restored)).toEqual(before);
      const row = await restored.system
        .selectFrom('integrations')
        .select('secret_sealed')
        .where('id', '=', integration.id)
        .executeTakeFirstOrThrow();
      expect(createSecretBox(KEY).open(row.secret_sealed)).toBe(integration.secret);
      expect(() =>
        createSecretBox(randomBytes(32).toString('base64')).open(row.secret_sealed),
      ).toThrow();
      // The restored database serves the tenant: its token, found through the route, works.
      const again = await createTestApp({}, { database: restored, masterKey: KEY });
      const read = await again.as(a.token, { method: 'GET', url: '/api/v1/repositories' });
      expect(read.statusCode, read.body).toBe(200);
      expect(
        read
          .json()
          .items.map((r: { name: string }) => r.name)
          .sort(),
      ).toEqual(['api', 'api-store', 'web']);
      await again.app.close();
      await again.tokenUsage.stop();
    } finally {
      await restored.close();
    }
  }, 120_000);

  test('refuses without the key, with another key, or a damaged file, and writes nothing', async () => {
    const path = join(work, 'refusals.dwbackup');
    await backUp(path);
    const { target, open } = await newTarget();
    await expect(restoreBackup(path, target, null)).rejects.toThrow(
      new RegExp(`No master key.*fingerprint ${masterKeyFingerprint(KEY)}`),
    );
    const other = randomBytes(32).toString('base64');
    await expect(restoreBackup(path, target, other)).rejects.toThrow(
      `Wrong master key: this backup needs the key of fingerprint ${masterKeyFingerprint(KEY)}, the configured key is ${masterKeyFingerprint(other)}`,
    );
    const bytes = readFileSync(path);
    const damaged = join(work, 'damaged.dwbackup');
    bytes[bytes.length - 10] = (bytes[bytes.length - 10] ?? 0) ^ 0xff;
    writeFileSync(damaged, bytes);
    await expect(restoreBackup(damaged, target, KEY)).rejects.toThrow(
      /is damaged: its payload does not match its checksum/,
    );
    if (target.engine === 'embedded') {
      expect(existsSync(join(target.dataDir, 'pgdata', 'PG_VERSION'))).toBe(false);
    } else {
      expect(await target.isEmpty()).toBe(true);
    }
    // The same target still takes the intact backup.
    await restoreBackup(path, target, KEY);
    const restored = await open();
    await restored.close();
  }, 120_000);

  test('refuses a backup of the other engine and a target that holds a database', async () => {
    const path = join(work, 'engine.dwbackup');
    await backUp(path);
    const wrong: RestoreTarget = serverUrl
      ? { engine: 'embedded', dataDir: mkdtempSync(join(work, 'data-')) }
      : {
          engine: 'postgres',
          url: 'postgres://nobody@127.0.0.1:1/none',
          tools: { pgDump: 'pg_dump', pgRestore: 'pg_restore' },
          isEmpty: async () => true,
        };
    await expect(restoreBackup(path, wrong, KEY)).rejects.toThrow(/This is a backup of/);
    const { target } = await newTarget();
    await restoreBackup(path, target, KEY);
    await expect(restoreBackup(path, target, KEY)).rejects.toThrow(
      /already holds a database|not empty/,
    );
  }, 120_000);
});
