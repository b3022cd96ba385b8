import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { notFound } from '../../core/problem';
import { newId } from '../../db/ids';
import type { DB } from '../../db/schema';
import type { SecretBox } from '../../security/secret-box';

/**
 * The billing provider's signing secrets (docs/billing.md#secrets): set by the operator through
 * the operator routes, kept sealed with the master key (AES-256-GCM), opened per delivery and
 * never returned or logged. Several at once during a rotation.
 */
export const MAX_SECRETS = 4;

export interface SecretSummary {
  secretId: string;
  fingerprint: string;
  createdAtUtc: string;
}

const fingerprintOf = (secret: string) =>
  createHash('sha256').update(secret, 'utf8').digest('hex').slice(0, 12);

export async function addProviderSecret(
  system: Kysely<DB>,
  secretBox: SecretBox,
  secret: string,
): Promise<SecretSummary> {
  const row = await system
    .insertInto('billing_provider_secrets')
    .values({
      id: newId(),
      secret_sealed: secretBox.seal(secret),
      fingerprint: fingerprintOf(secret),
    })
    .returning(['id', 'fingerprint', 'created_at'])
    .executeTakeFirstOrThrow();
  return {
    secretId: row.id,
    fingerprint: row.fingerprint,
    createdAtUtc: row.created_at.toISOString(),
  };
}

export async function listProviderSecrets(system: Kysely<DB>): Promise<SecretSummary[]> {
  const rows = await system
    .selectFrom('billing_provider_secrets')
    .select(['id', 'fingerprint', 'created_at'])
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({
    secretId: row.id,
    fingerprint: row.fingerprint,
    createdAtUtc: row.created_at.toISOString(),
  }));
}

export async function countProviderSecrets(system: Kysely<DB>): Promise<number> {
  const row = await system
    .selectFrom('billing_provider_secrets')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function removeProviderSecret(system: Kysely<DB>, secretId: string): Promise<void> {
  const removed = await system
    .deleteFrom('billing_provider_secrets')
    .where('id', '=', secretId)
    .executeTakeFirst();
  if (Number(removed.numDeletedRows) === 0) throw notFound('The billing provider secret');
}

/** The configured secrets in the clear, for one delivery's check (a sealed one that no longer
 * opens, after a master-key change, is skipped). */
export async function openProviderSecrets(
  system: Kysely<DB>,
  secretBox: SecretBox,
): Promise<string[]> {
  const rows = await system
    .selectFrom('billing_provider_secrets')
    .select('secret_sealed')
    .limit(MAX_SECRETS)
    .execute();
  const secrets: string[] = [];
  for (const row of rows) {
    try {
      secrets.push(secretBox.open(row.secret_sealed));
    } catch {
      // Sealed under another master key: unusable, and the listing still shows it.
    }
  }
  return secrets;
}
