import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Database } from '../../src/db/connection';
import {
  type GlobalClass,
  isTenantTable,
  readCatalogue,
  schemaShardProblems,
} from '../support/shard-readiness';
import { openTestDatabase } from '../support/test-app';

/**
 * The global tables (no tenant_id) and their class (docs/scaling.md#distribution-plan). Every
 * other table is distributed by tenant_id. A new table without tenant_id fails the test until
 * it is classified here and in docs/scaling.md.
 */
const GLOBAL_TABLES: Record<string, GlobalClass> = {
  // Tenants and the routing directory: small, read on every request, written rarely.
  tenants: 'reference',
  tenant_routes: 'reference',
  // The shared package catalogue and advisory intelligence (one copy for every tenant).
  packages: 'reference',
  package_versions: 'reference',
  package_metadata: 'reference',
  package_enrichment: 'reference',
  package_health_snapshots: 'reference',
  vulnerabilities: 'reference',
  osv_advisories: 'reference',
  osv_advisory_aliases: 'reference',
  osv_affected: 'reference',
  known_exploited_vulnerabilities: 'reference',
  // The public status page: read by anyone, written by the operator.
  status_components: 'reference',
  status_incidents: 'reference',
  status_incident_updates: 'reference',
  status_changelog: 'reference',
  // Service-wide state, read and written through the system connection only.
  schema_migrations: 'coordinator',
  osv_feed_state: 'coordinator',
  known_exploited_imports: 'coordinator',
  registry_backoff: 'coordinator',
  billing_provider_secrets: 'coordinator',
  billing_unmatched_events: 'coordinator',
  compliance_signing_keys: 'coordinator',
  status_email_outbox: 'coordinator',
  status_email_subscriptions: 'coordinator',
  status_webhook_subscriptions: 'coordinator',
  tenant_deletions: 'coordinator',
};

let database: Database;

beforeAll(async () => {
  database = await openTestDatabase(2);
});
afterAll(() => database.close());

describe('the schema is ready to shard by tenant', () => {
  test('every tenant table leads its keys with tenant_id; every global table is classified', async () => {
    const catalogue = await readCatalogue(database.pool);
    expect(catalogue.filter(isTenantTable).length).toBeGreaterThan(50);
    expect(schemaShardProblems(catalogue, GLOBAL_TABLES)).toEqual([]);
  });

  test('every classified global table exists (the list does not go stale)', async () => {
    const names = new Set((await readCatalogue(database.pool)).map((table) => table.name));
    expect(Object.keys(GLOBAL_TABLES).filter((name) => !names.has(name))).toEqual([]);
  });

  test('a table that breaks the rules is reported, each way it breaks them', async () => {
    const s = 'shard_probe';
    await database.pool.query(`CREATE SCHEMA ${s};
      CREATE TABLE ${s}.parents (tenant_id uuid NOT NULL, id uuid NOT NULL, PRIMARY KEY (tenant_id, id));
      CREATE UNIQUE INDEX parents_id ON ${s}.parents (id);
      CREATE TABLE ${s}.lookups (id uuid PRIMARY KEY);
      CREATE TABLE ${s}.unlisted (id uuid PRIMARY KEY);
      CREATE TABLE ${s}.children (
        tenant_id uuid,
        id uuid NOT NULL PRIMARY KEY,
        parent_id uuid NOT NULL REFERENCES ${s}.parents (id),
        lookup_id uuid REFERENCES ${s}.lookups (id),
        email text,
        UNIQUE (tenant_id, parent_id)
      );
      CREATE UNIQUE INDEX children_email ON ${s}.children (email);`);
    try {
      const catalogue = await readCatalogue(database.pool, s);
      expect(schemaShardProblems(catalogue, { lookups: 'coordinator' })).toEqual([
        'children: tenant_id is nullable',
        'children: primary key children_pkey (id)',
        'children: unique children_email (email)',
        'children: foreign key children_parent_id_fkey (parent_id) -> parents without tenant_id',
        'children: foreign key children_lookup_id_fkey -> lookups, not a reference table',
        'parents: unique parents_id (id)',
        'unlisted: no tenant_id and not classified as a global table',
      ]);
      // A foreign key to a reference table is allowed, as Citus allows it.
      expect(
        schemaShardProblems(catalogue, { lookups: 'reference', unlisted: 'coordinator' }),
      ).toEqual([
        'children: tenant_id is nullable',
        'children: primary key children_pkey (id)',
        'children: unique children_email (email)',
        'children: foreign key children_parent_id_fkey (parent_id) -> parents without tenant_id',
        'parents: unique parents_id (id)',
      ]);
    } finally {
      await database.pool.query(`DROP SCHEMA ${s} CASCADE`);
    }
  });
});
