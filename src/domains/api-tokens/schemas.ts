import { Type } from 'typebox';
import { DateTime, NullableDateTime, Uuid } from '../../http/schemas';

export const CreateApiTokenBody = Type.Object({
  name: Type.String({ description: 'Human label (required, not empty)' }),
  roleScopeJson: Type.Union([Type.String(), Type.Null()], {
    description:
      'JSON document {"roles":[...]} with roles viewer, member, admin, owner; null inherits the creator\'s roles',
  }),
  expiresAtUtc: Type.Union([Type.String(), Type.Null()], {
    description: 'ISO 8601 UTC expiry in the future, or null for no expiry of its own',
  }),
});

const tokenFields = {
  apiTokenId: Uuid,
  name: Type.String(),
  prefix: Type.String(),
  roleScopeJson: Type.String({ description: 'JSON document of roles; {} when inherited' }),
  expiresAtUtc: NullableDateTime,
  createdAtUtc: DateTime,
};

export const CreatedApiToken = Type.Object({
  ...tokenFields,
  rawSecret: Type.String({ description: 'The token; returned once, never retrievable again' }),
  replay: Type.Boolean({ description: 'true when a repeat of a recent identical request' }),
});

export const ApiTokenListItem = Type.Object({
  ...tokenFields,
  lastUsedAtUtc: NullableDateTime,
  revokedAtUtc: NullableDateTime,
});

export const ApiTokenList = Type.Object({
  items: Type.Array(ApiTokenListItem),
  totalEstimate: Type.Integer(),
});

/** GET /api/v1/api-tokens/current: the calling token, with the roles it holds in effect. */
export const CurrentApiToken = Type.Object({
  apiTokenId: Uuid,
  name: Type.String(),
  prefix: Type.String({ description: 'The first characters of the secret, to recognise it' }),
  roles: Type.Array(
    Type.Union([
      Type.Literal('viewer'),
      Type.Literal('member'),
      Type.Literal('admin'),
      Type.Literal('owner'),
    ]),
    {
      description: 'Roles in effect (inherited roles resolved); each includes the ones below it',
    },
  ),
  expiresAtUtc: NullableDateTime,
});
