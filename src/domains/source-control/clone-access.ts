import type { Config } from '../../config';
import type { Database } from '../../db/connection';
import { withTenant } from '../../db/tenant-scope';
import { outboundPolicy } from '../../security/outbound-guard';
import type { SecretBox } from '../../security/secret-box';
import type { GitAccess } from '../../sources/git';
import { cloneCredentialsFor, loadProviderConnection } from './service';

/** What a checkout needs to know of a repository: its deploy key and its connection. */
export interface CloneSource {
  deploy_key_sealed: string | null;
  connection_id: string | null;
}

export interface CloneAccess {
  credentials: { username: string; password: string } | null;
  deployKey: string | null;
  /** Where git may connect for this tenant (outbound guard, file:// roots). */
  git: GitAccess;
}

/**
 * Where git may connect for a tenant's clone: the outbound guard's policy for `git` (the
 * operator's allow-lists, service-wide and the tenant's), and the file:// roots when file://
 * URLs are on at all (docs/outbound-guard.md).
 */
export function gitAccessFor(config: Config, tenantId: string): GitAccess {
  return {
    policy: outboundPolicy(config, 'git', tenantId),
    fileRoots: config.scans.allowFileUrls ? config.scans.fileUrlRoots : null,
    tenantId,
  };
}

/**
 * What a checkout of this repository needs: the ssh deploy key stored with a clone-URL import
 * (opened here, only for the checkout), or the https clone credentials of its connection (what
 * the provider hands out, or a generic git connection's stored username and password), and the
 * guard's policy. The connection is read in a short tenant transaction; the provider call (an
 * installation token) runs after it, with nothing held. Provider failures throw the provider's
 * error; the worker turns that into the scan's `failed` reason.
 */
export async function cloneAccessFor(
  deps: { secretBox: SecretBox; config: Config; database: Database },
  tenantId: string,
  repository: CloneSource,
): Promise<CloneAccess> {
  const git = gitAccessFor(deps.config, tenantId);
  const deployKey = repository.deploy_key_sealed
    ? deps.secretBox.open(repository.deploy_key_sealed)
    : null;
  if (!repository.connection_id) return { credentials: null, deployKey, git };
  const connectionId = repository.connection_id;
  const connection = await withTenant(deps.database, tenantId, (db) =>
    loadProviderConnection(db, deps.secretBox, deps.config, connectionId),
  );
  if (!connection) throw new Error("the repository's source-control connection no longer exists");
  if (connection.status !== 'active') {
    throw new Error(`the repository's source-control connection is ${connection.status}`);
  }
  return { credentials: await cloneCredentialsFor(deps.config, connection), deployKey, git };
}
