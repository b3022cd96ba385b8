import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/schema';
import type { CatalogueChange } from '../../intel/package-catalogue/changes';
import { emitEventToTenants } from '../events';

/**
 * Turns a change of the shared catalogue into events for the tenants it concerns, in the
 * transaction that stored the change (docs/events.md): the tenants that depend on the package
 * (for yanks: on one of the yanked versions), and for deprecation, maintainers and releases also
 * those that watch it. One set-based read per audience, one insert per event.
 */
export async function emitCatalogueEvents(trx: Kysely<DB>, change: CatalogueChange): Promise<void> {
  const pkg = {
    packageId: change.package.id,
    ecosystem: change.package.ecosystem,
    name: change.package.name,
  };
  const usingOrWatching = () => tenantsOf(trx, change.package.id, { watchers: true });
  if (change.deprecated) {
    await emitEventToTenants(trx, 'package.deprecated', await usingOrWatching(), {
      ...pkg,
      ...change.deprecated,
    });
  }
  if (change.yanked) {
    const tenants = await tenantsOf(trx, change.package.id, { versions: change.yanked });
    await emitEventToTenants(trx, 'package.versions_yanked', tenants, {
      ...pkg,
      versions: change.yanked,
    });
  }
  if (change.maintainers) {
    await emitEventToTenants(trx, 'package.maintainers_changed', await usingOrWatching(), {
      ...pkg,
      ...change.maintainers,
    });
  }
  if (change.released) {
    await emitEventToTenants(trx, 'package.released', await usingOrWatching(), {
      ...pkg,
      ...change.released,
    });
  }
  if (change.health) {
    const tenants = await tenantsOf(trx, change.package.id, {});
    await emitEventToTenants(trx, 'package.health_changed', tenants, { ...pkg, ...change.health });
  }
}

/** Tenants depending on the package (at one of `versions`), and watchers when asked. */
async function tenantsOf(
  system: Kysely<DB>,
  packageId: string,
  options: { versions?: string[]; watchers?: boolean },
): Promise<string[]> {
  const versionFilter = options.versions
    ? sql`AND version = ANY(${options.versions}::text[])`
    : sql``;
  const watchers = options.watchers
    ? sql`UNION SELECT tenant_id FROM package_watches WHERE package_id = ${packageId}`
    : sql``;
  const { rows } = await sql<{ tenant_id: string }>`
    SELECT tenant_id FROM repository_dependencies WHERE package_id = ${packageId} ${versionFilter}
    ${watchers}
    ORDER BY 1`.execute(system);
  return [...new Set(rows.map((row) => row.tenant_id))];
}
