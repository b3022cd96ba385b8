import type { Kysely, Selectable } from 'kysely';
import type { DB } from '../../db/schema';
import type { JobDeps } from '../job-deps';
import { cloneCredentialsFor, loadProviderConnection } from '../source-control/service';
import type { RepositoryTable } from './tables';

export interface CloneAccess {
  credentials: { username: string; password: string } | null;
  deployKey: string | null;
}

/**
 * What a checkout of this repository needs: the ssh deploy key stored with a clone-URL import
 * (opened here, only for the checkout), or the https clone credentials of its connection (what
 * the provider hands out, or a generic git connection's stored username and password). Provider failures throw the
 * provider's error; the worker turns that into the scan's `failed` reason.
 */
export async function cloneAccessFor(
  db: Kysely<DB>,
  deps: Pick<JobDeps, 'secretBox' | 'config'>,
  repository: Selectable<RepositoryTable>,
): Promise<CloneAccess> {
  const deployKey = repository.deploy_key_sealed
    ? deps.secretBox.open(repository.deploy_key_sealed)
    : null;
  if (!repository.connection_id) return { credentials: null, deployKey };
  const connection = await loadProviderConnection(
    db,
    deps.secretBox,
    deps.config,
    repository.connection_id,
  );
  if (!connection) throw new Error("the repository's source-control connection no longer exists");
  if (connection.status !== 'active') {
    throw new Error(`the repository's source-control connection is ${connection.status}`);
  }
  return { credentials: await cloneCredentialsFor(deps.config, connection), deployKey };
}
