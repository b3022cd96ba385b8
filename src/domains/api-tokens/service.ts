import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Principal } from '../../core/principal';
import { FieldErrorCollector } from '../../core/problem';
import { highestRole, isRole, ROLES, type Role, roleRank } from '../../core/roles';
import { newId } from '../../db/ids';
import type { DB } from '../../db/schema';
import type { SecretBox } from '../../security/secret-box';
import { generateToken, hashToken, tokenPrefix } from '../../security/tokens';
import { type ApiTokenRow, findReplayable, forgetExpiredReplays, insertApiToken } from './store';

const REPLAY_WINDOW_MS = 10 * 60 * 1000;

export interface CreateTokenRequest {
  name: string;
  roleScopeJson: string | null;
  expiresAtUtc: string | null;
}

export interface IssuedToken {
  row: ApiTokenRow;
  rawSecret: string;
  replay: boolean;
}

/** Validates the request against the rules (422 with `errors` per field). */
function validate(request: CreateTokenRequest, creatorRoles: readonly Role[], now: Date) {
  const errors = new FieldErrorCollector();
  const name = request.name.trim();
  if (name === '') errors.add('name', 'must not be empty');
  if (name.length > 200) errors.add('name', 'must be at most 200 characters');

  let roles: Role[] | null = null;
  if (request.roleScopeJson !== null) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(request.roleScopeJson);
    } catch {
      errors.add('roleScopeJson', 'must be a JSON document such as {"roles":["viewer"]}');
    }
    if (parsed !== undefined) {
      const list = (parsed as { roles?: unknown } | null)?.roles;
      if (
        typeof parsed !== 'object' ||
        parsed === null ||
        !Array.isArray(list) ||
        list.length === 0
      ) {
        errors.add('roleScopeJson', 'must be an object with a non-empty "roles" array');
      } else {
        const unknown = list.filter((role) => !isRole(role));
        if (unknown.length > 0) {
          errors.add(
            'roleScopeJson',
            `unknown role ${unknown.map(String).join(', ')}; roles are ${ROLES.join(', ')}`,
          );
        } else {
          roles = [...new Set(list as Role[])];
          const ceiling = roleRank(highestRole(creatorRoles));
          if (roles.some((role) => roleRank(role) > ceiling)) {
            errors.add(
              'roleScopeJson',
              `must not grant more than the creator holds (${creatorRoles.join(', ')})`,
            );
          }
        }
      }
    }
  }

  let expiresAt: Date | null = null;
  if (request.expiresAtUtc !== null) {
    const parsed = new Date(request.expiresAtUtc);
    if (!/^\d{4}-\d{2}-\d{2}T/.test(request.expiresAtUtc) || Number.isNaN(parsed.getTime())) {
      errors.add('expiresAtUtc', 'must be an ISO 8601 UTC date-time');
    } else if (parsed <= now) {
      errors.add('expiresAtUtc', 'must be in the future');
    } else {
      expiresAt = parsed;
    }
  }
  errors.throwIfAny(422);
  return { name, roles, expiresAt };
}

function replayKeyOf(principal: Principal, request: CreateTokenRequest): string {
  return createHash('sha256')
    .update(
      JSON.stringify([
        principal.tokenId,
        request.name,
        request.roleScopeJson,
        request.expiresAtUtc,
      ]),
    )
    .digest('hex');
}

/**
 * Creates a token for the caller's tenant, or returns the one an identical request of the same
 * principal created in the last 10 minutes (`replay: true`, docs/design.md#http-rules).
 */
export async function createApiToken(
  db: Kysely<DB>,
  secretBox: SecretBox,
  principal: Principal,
  request: CreateTokenRequest,
  now = new Date(),
): Promise<IssuedToken> {
  const valid = validate(request, principal.roles, now);
  const replayKey = replayKeyOf(principal, request);
  await forgetExpiredReplays(db);
  const existing = await findReplayable(db, replayKey);
  if (existing?.replay_secret) {
    return { row: existing, rawSecret: secretBox.open(existing.replay_secret), replay: true };
  }
  const rawSecret = generateToken();
  const row = await insertApiToken(db, {
    id: newId(),
    name: valid.name,
    prefix: tokenPrefix(rawSecret),
    secretHash: hashToken(rawSecret),
    roles: valid.roles ?? principal.roles,
    roleScopeJson: valid.roles ? JSON.stringify({ roles: valid.roles }) : '{}',
    expiresAt: valid.expiresAt,
    createdByTokenId: principal.tokenId,
    replayKey,
    replaySecret: secretBox.seal(rawSecret),
    replayUntil: new Date(now.getTime() + REPLAY_WINDOW_MS),
  });
  return { row, rawSecret, replay: false };
}

/**
 * A tenant's first token, created by an administrator (CLI, first start, demo login); `db` is
 * scoped to that tenant.
 */
export async function issueOwnerToken(
  db: Kysely<DB>,
  name: string,
  expiresAt: Date | null,
): Promise<IssuedToken> {
  const rawSecret = generateToken();
  const row = await insertApiToken(db, {
    id: newId(),
    name,
    prefix: tokenPrefix(rawSecret),
    secretHash: hashToken(rawSecret),
    roles: ['owner'],
    roleScopeJson: JSON.stringify({ roles: ['owner'] }),
    expiresAt,
    createdByTokenId: null,
    replayKey: null,
    replaySecret: null,
    replayUntil: null,
  });
  return { row, rawSecret, replay: false };
}
