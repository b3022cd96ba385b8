import { Type } from 'typebox';
import { DateTime, TotalList, Uuid } from '../../http/schemas';

const Provider = Type.Union(
  [
    Type.Literal('scm-a'),
    Type.Literal('scm-b'),
    Type.Literal('scm-c'),
    Type.Literal('scm-d'),
    Type.Literal('git'),
  ],
  { description: 'scm-a..scm-d (the four hosted providers) or git (clone URLs)' },
);

const NullableString = Type.Union([Type.String(), Type.Null()]);

export const Connection = Type.Object({
  connectionId: Uuid,
  provider: Provider,
  name: Type.String(),
  baseUrl: Type.Union([Type.String(), Type.Null()], {
    description: "The connection's own API base; null uses the server's configured one",
  }),
  externalId: Type.Union([Type.String(), Type.Null()], {
    description: 'Installation id (scm-a), organisation (scm-c), workspace (scm-d cloud)',
  }),
  accountName: NullableString,
  status: Type.Union(
    [
      Type.Literal('active'),
      Type.Literal('suspended'),
      Type.Literal('revoked'),
      Type.Literal('error'),
    ],
    { description: 'Only active connections can list or import repositories' },
  ),
  statusReason: NullableString,
  webhookUrl: Type.Union([Type.String(), Type.Null()], {
    description: 'Path push deliveries for this connection are sent to',
  }),
  hasWebhookSecret: Type.Boolean({
    description: 'Whether the connection has its own webhook secret (never returned)',
  }),
  createdAtUtc: DateTime,
  updatedAtUtc: DateTime,
});

export const ConnectionList = TotalList(Connection);

export const InstallBody = Type.Object({
  installationId: Type.Union([Type.Integer(), Type.String()], {
    description: 'The scm-a app installation id (positive integer)',
  }),
  name: Type.Optional(Type.String({ description: 'Label; defaults to the account login' })),
  webhookSecret: Type.Optional(
    Type.String({
      description:
        "This installation's own webhook secret; unset uses the app's (SCM_A_WEBHOOK_SECRET)",
    }),
  ),
});

export const CreateConnectionBody = Type.Object({
  provider: Type.String({ description: 'scm-b, scm-c, scm-d or git' }),
  name: Type.String(),
  baseUrl: Type.Optional(
    Type.String({ description: 'Own API base (only when SCM_ALLOW_CUSTOM_BASE_URLS is on)' }),
  ),
  organization: Type.Optional(Type.String({ description: 'scm-c organisation (required there)' })),
  workspace: Type.Optional(Type.String({ description: 'scm-d cloud workspace (required there)' })),
  flavor: Type.Optional(Type.String({ description: 'scm-d: cloud (default) or datacenter' })),
  credentials: Type.Optional(
    Type.Object(
      {
        token: Type.Optional(Type.String()),
        username: Type.Optional(Type.String()),
        password: Type.Optional(Type.String()),
        appPassword: Type.Optional(Type.String()),
      },
      {
        additionalProperties: false,
        description:
          'scm-b: token; scm-c: token (PAT); scm-d cloud: username + appPassword, or token; ' +
          'scm-d datacenter: token (+ username for cloning); git: username + password, or none',
      },
    ),
  ),
  webhookSecret: Type.Optional(
    Type.String({ description: 'Own webhook secret (16+ characters); generated when absent' }),
  ),
});

export const CreatedConnection = Type.Object({
  ...Connection.properties,
  webhookSecret: Type.Union([Type.String(), Type.Null()], {
    description: 'The generated webhook secret, shown once; null when you chose it',
  }),
});

export const AvailableRepository = Type.Object({
  externalId: Type.String({ description: "The provider's repository id (use it to import)" }),
  name: Type.String(),
  fullName: Type.String(),
  cloneUrl: Type.String(),
  webUrl: NullableString,
  defaultBranch: Type.String(),
  private: Type.Boolean(),
  imported: Type.Boolean(),
  repositoryId: Type.Union([Uuid, Type.Null()], {
    description: 'The imported repository, when imported',
  }),
});

export const AvailableRepositoryList = TotalList(AvailableRepository);
