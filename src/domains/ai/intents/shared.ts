import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema';
import type { ExposureStatus } from '../../exposures/tables';
import type { IntentContext, IntentResult } from '../intent';
import { answer } from '../intent';
import { UNRESOLVED_STATUSES } from '../parse/vocabulary';
import {
  type ResolvedPackage,
  type ResolvedRepository,
  resolvePackage,
  resolveRepository,
} from '../resolve';
import type { QueriedExposure } from '../store';

/** Helpers the intents share: names of repositories, resolving a named repository or package. */

export async function repositoryNames(
  db: Kysely<DB>,
  ids: readonly string[],
): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('repositories')
    .select(['id', 'full_name'])
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return new Map(rows.map((r) => [r.id, r.full_name]));
}

/** Runs `then` with the named repository (or none named); asks back when the name is several. */
export async function withRepository(
  context: IntentContext,
  name: string | null,
  rephrase: (fullName: string) => string,
  then: (repository: ResolvedRepository | null) => Promise<IntentResult>,
): Promise<IntentResult> {
  if (name === null) return then(null);
  const found = await resolveRepository(context.db, name, rephrase);
  if (found.kind === 'clarification') return found.clarification;
  if (found.kind === 'none') {
    return answer(`You have no repository named "${name}".`, [], []);
  }
  return then(found.value);
}

export async function withPackage(
  context: IntentContext,
  mention: { name: string; ecosystem: string | null } | null,
  rephrase: (purl: string) => string,
  then: (pkg: ResolvedPackage | null) => Promise<IntentResult>,
): Promise<IntentResult> {
  if (mention === null) return then(null);
  const found = await resolvePackage(context.db, mention, rephrase);
  if (found.kind === 'clarification') return found.clarification;
  if (found.kind === 'none') {
    const where = mention.ecosystem ? ` (${mention.ecosystem})` : '';
    return answer(
      `None of your repositories uses a package named "${mention.name}"${where}.`,
      [],
      [],
    );
  }
  return then(found.value);
}

export const isUnresolved = (status: ExposureStatus) => UNRESOLVED_STATUSES.includes(status);

export function exposureRow(e: QueriedExposure, repositories: Map<string, string>) {
  return {
    exposureId: e.id,
    repositoryId: e.repository_id,
    repository: repositories.get(e.repository_id) ?? e.repository_id,
    packageId: e.package_id,
    ecosystem: e.ecosystem,
    packageName: e.package_name,
    version: e.version,
    vulnerabilityId: e.vulnerability_id,
    canonicalId: e.canonical_id,
    severity: e.severity_rating,
    status: e.status,
    reachability: e.reachability,
    firstSeenUtc: e.first_seen_at.toISOString(),
    fixedUtc: e.fixed_at ? e.fixed_at.toISOString() : null,
  };
}

/** "express@4.17.1" */
export const packageAt = (name: string, version: string | null) =>
  version ? `${name}@${version}` : name;
