import { type Kysely, type Selectable, sql } from 'kysely';
import type { DB } from '../../db/schema';
import type { ApiTokenTable } from './tables';

export type ApiTokenRow = Selectable<ApiTokenTable>;

/** A token of the scope's tenant (the database fills tenant_id from the scope). */
export interface NewApiToken {
  id: string;
  name: string;
  prefix: string;
  secretHash: Buffer;
  roles: string[];
  roleScopeJson: string;
  expiresAt: Date | null;
  createdByTokenId: string | null;
  replayKey: string | null;
  replaySecret: string | null;
  replayUntil: Date | null;
}

export async function insertApiToken(db: Kysely<DB>, token: NewApiToken): Promise<ApiTokenRow> {
  return db
    .insertInto('api_tokens')
    .values({
      id: token.id,
      name: token.name,
      prefix: token.prefix,
      secret_hash: token.secretHash,
      roles: token.roles,
      role_scope_json: token.roleScopeJson,
      expires_at: token.expiresAt,
      created_by_token_id: token.createdByTokenId,
      replay_key: token.replayKey,
      replay_secret: token.replaySecret,
      replay_until: token.replayUntil,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function findReplayable(db: Kysely<DB>, replayKey: string) {
  return db
    .selectFrom('api_tokens')
    .selectAll()
    .where('replay_key', '=', replayKey)
    .where('replay_until', '>', sql<Date>`now()`)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
}

/** Sealed secrets are kept only for the replay window. */
export async function forgetExpiredReplays(db: Kysely<DB>): Promise<void> {
  await db
    .updateTable('api_tokens')
    .set({ replay_key: null, replay_secret: null, replay_until: null })
    .where('replay_key', 'is not', null)
    .where('replay_until', '<=', sql<Date>`now()`)
    .execute();
}

const LISTED_COLUMNS = [
  'id',
  'name',
  'prefix',
  'role_scope_json',
  'expires_at',
  'created_at',
  'last_used_at',
  'revoked_at',
] as const;

export type ListedApiToken = Pick<ApiTokenRow, (typeof LISTED_COLUMNS)[number]>;

/** The tenant's tokens without secrets or replay material. */
export async function listApiTokens(db: Kysely<DB>): Promise<ListedApiToken[]> {
  return db
    .selectFrom('api_tokens')
    .select(LISTED_COLUMNS)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/** The calling token's public fields (RLS keeps it to the scope's tenant); never the hash. */
export async function findOwnApiToken(db: Kysely<DB>, id: string) {
  return db
    .selectFrom('api_tokens')
    .select(['id', 'name', 'prefix', 'expires_at'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Revokes an active token; undefined when unknown (or another tenant's) or already revoked. */
export async function revokeApiToken(db: Kysely<DB>, id: string) {
  return db
    .updateTable('api_tokens')
    .set({
      revoked_at: sql<Date>`now()`,
      replay_key: null,
      replay_secret: null,
      replay_until: null,
    })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
}
