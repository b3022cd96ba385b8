import type { Insertable } from 'kysely';
import { newId } from '../../../src/db/ids';
import type { DB } from '../../../src/db/schema';
import { withTenant } from '../../../src/db/tenant-scope';
import type { GitFixture } from '../git-fixtures';
import type { TestApp, TestTenant } from '../test-app';
import { twoTenants } from './tenants';

/** Repositories of a tenant, written straight to the table the way an import leaves them. */

type RepositoryColumns = Partial<Omit<Insertable<DB['repositories']>, 'tenant_id' | 'id' | 'name'>>;

/** A git repository row named `name` (clone URL on git.example.test unless `columns` says). */
export async function insertRepository(
  t: TestApp,
  tenantId: string,
  name: string,
  /** Columns as a particular import would leave them (default branch, URLs...). */
  columns: RepositoryColumns = {},
): Promise<string> {
  const id = newId();
  await withTenant(t.database, tenantId, (db) =>
    db
      .insertInto('repositories')
      .values({
        tenant_id: tenantId,
        id,
        provider: 'git',
        name,
        full_name: `acme/${name}`,
        clone_url: `https://git.example.test/acme/${name}.git`,
        ...columns,
      })
      .execute(),
  );
  return id;
}

/** A repository whose clone URL is the file:// URL of a local git fixture (scannable for real). */
export function insertFixtureRepository(
  t: TestApp,
  tenantId: string,
  name: string,
  fixture: GitFixture,
): Promise<string> {
  return insertRepository(t, tenantId, name, {
    full_name: `fixtures/${name}`,
    clone_url: fixture.url,
    default_branch: 'main',
  });
}

/** The tenant's repository of this name, created on first use. */
export async function testRepository(
  t: TestApp,
  tenant: TestTenant,
  name: string,
): Promise<string> {
  const existing = await withTenant(t.database, tenant.tenantId, (db) =>
    db.selectFrom('repositories').select('id').where('name', '=', name).executeTakeFirst(),
  );
  if (existing) return existing.id;
  return insertRepository(t, tenant.tenantId, name, {
    clone_url: `https://git.example.test/${tenant.tenantId}/${name}.git`,
  });
}

/**
 * Tenants `A` and `B` (enterprise) with repositories of these names in A, in order: the usual
 * start of a test of one tenant's findings that the other tenant must not see.
 */
export async function twoTenantsWithRepositories<const Names extends readonly string[]>(
  t: TestApp,
  names: Names,
): Promise<{ a: TestTenant; b: TestTenant; repositories: { [K in keyof Names]: string } }> {
  const { a, b } = await twoTenants(t);
  const repositories: string[] = [];
  for (const name of names) repositories.push(await insertRepository(t, a.tenantId, name));
  return { a, b, repositories: repositories as { [K in keyof Names]: string } };
}
