import { Type } from 'typebox';
import { DateTime, NullableDateTime, NullableString, TotalList, Uuid } from '../../http/schemas';

export const CreateDestinationBody = Type.Object(
  {
    name: Type.String({ maxLength: 1000, description: '1 to 200 characters' }),
    kind: Type.Union([Type.Literal('postgresql'), Type.Literal('https')]),
    connectionString: Type.Optional(
      Type.String({
        maxLength: 4096,
        description:
          'postgresql: postgres://user:password@host:port/database?sslmode=verify-full|require|disable' +
          '&schema=name; encrypted at rest, never shown again (the host must pass the outbound rules)',
      }),
    ),
    url: Type.Optional(
      Type.String({
        maxLength: 4096,
        description: 'https: a public https URL receiving signed gzip NDJSON batches',
      }),
    ),
  },
  { additionalProperties: false },
);

export const Destination = Type.Object({
  destinationId: Uuid,
  kind: Type.String({ description: 'postgresql | https' }),
  name: Type.String(),
  target: Type.String({
    description: 'The https URL, or the connection string without its password',
  }),
  createdAtUtc: DateTime,
  lastRunAtUtc: NullableDateTime,
});

export const DestinationWithSecret = Type.Object({
  ...Destination.properties,
  secret: NullableString,
});

export const DestinationList = TotalList(Destination);

export const ExportRun = Type.Object({
  runId: Uuid,
  destinationId: Uuid,
  state: Type.String({ description: 'queued | running | succeeded | failed' }),
  trigger: Type.String({ description: 'manual | schedule' }),
  rows: Type.Integer(),
  bytes: Type.Integer({
    description: 'https: gzip bytes sent; postgresql: the rows as NDJSON',
  }),
  durationMs: Type.Unsafe<number | null>({ type: ['integer', 'null'] }),
  tables: Type.Record(Type.String(), Type.Integer(), { description: 'rows per fact table' }),
  errors: Type.Array(Type.String()),
  createdAtUtc: DateTime,
  startedAtUtc: NullableDateTime,
  finishedAtUtc: NullableDateTime,
});

export const RunsQuery = Type.Object({
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 100,
      description: 'Most recent runs returned (default 20)',
    }),
  ),
});

export const RunList = Type.Object({ items: Type.Array(ExportRun), limit: Type.Integer() });
