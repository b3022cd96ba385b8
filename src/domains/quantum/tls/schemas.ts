import { Type } from 'typebox';
import { enumQuery, TakeSkipQuery } from '../../../http/query';
import {
  DateTime,
  ItemsList,
  NullableDateTime,
  NullableString,
  TotalEstimatePage,
  Uuid,
  UuidParam,
} from '../../../http/schemas';
import { QUANTUM_CLASSIFICATIONS, TLS_OBSERVATION_STATES } from '../tables';
import {
  DEFAULT_INTERVAL_HOURS,
  DEFAULT_PORT,
  MAX_ENDPOINTS_PER_TENANT,
  MAX_INTERVAL_HOURS,
  MAX_NAME_LENGTH,
} from './endpoints';

/** Request and response shapes of the TLS endpoints and observations (docs/quantum.md). */

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()]);

const STATES = TLS_OBSERVATION_STATES.join(', ');

const serverName = Type.Optional(
  Nullable(
    Type.String({
      minLength: 1,
      maxLength: MAX_NAME_LENGTH,
      description:
        'The name sent as SNI (a DNS name); default: the host when it is a name, none for an IP address',
    }),
  ),
);
const repositoryId = Type.Optional(
  Nullable(
    Type.String({
      format: 'uuid',
      description:
        "The tenant's repository whose service answers there: the endpoint's chain is listed among that repository's certificates (provenance tls-observation) and its quantum facts; null: none",
    }),
  ),
);
const intervalHours = Type.Integer({
  minimum: 1,
  maximum: MAX_INTERVAL_HOURS,
  description: `Hours between two probes (default ${DEFAULT_INTERVAL_HOURS})`,
});

export const CreateEndpointRequest = Type.Object(
  {
    host: Type.String({
      minLength: 1,
      // An IPv6 literal in brackets is shorter than the longest name.
      maxLength: MAX_NAME_LENGTH,
      description: 'A DNS name or an IP address (IPv6 with or without brackets)',
    }),
    port: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 65535, description: `Default ${DEFAULT_PORT}` }),
    ),
    serverName,
    intervalHours: Type.Optional(intervalHours),
    repositoryId,
  },
  { additionalProperties: false },
);

export const UpdateEndpointRequest = Type.Object(
  { serverName, intervalHours: Type.Optional(intervalHours), repositoryId },
  { additionalProperties: false },
);

const State = Type.String({ description: STATES });

export const Endpoint = Type.Object({
  endpointId: Uuid,
  host: Type.String(),
  port: Type.Integer(),
  serverName: NullableString,
  repositoryId: Nullable(Uuid),
  intervalHours: Type.Integer(),
  createdAtUtc: DateTime,
  lastProbedAtUtc: NullableDateTime,
  nextProbeAtUtc: DateTime,
  latestObservation: Nullable(
    Type.Object({
      observationId: Uuid,
      observedAtUtc: DateTime,
      state: State,
      hybridKexClassicalAuth: Type.Boolean(),
      verdictReason: NullableString,
    }),
  ),
});

export const EndpointList = ItemsList(Endpoint);
export const EndpointIdParam = UuidParam('endpointId');

const NamedGroup = Nullable(
  Type.Object({
    name: Type.String({ description: 'IANA name: x25519, secp256r1, X25519MLKEM768, ...' }),
    codepoint: Type.Integer({ description: 'The TLS supported-groups codepoint (0x11EC = 4588)' }),
  }),
);
const NullableInteger = Type.Unsafe<number | null>({ type: ['integer', 'null'] });

export const ObservedCertificate = Type.Object({
  subject: Type.String(),
  issuer: Type.String(),
  serialNumber: Type.String(),
  notBefore: DateTime,
  notAfter: DateTime,
  keyAlgorithm: Type.String(),
  keySize: NullableInteger,
  curve: NullableString,
  parameterSet: NullableString,
  signatureAlgorithm: Type.String(),
  fingerprintSha256: Type.String(),
  classification: Type.String({ description: QUANTUM_CLASSIFICATIONS.join(', ') }),
  expired: Type.Boolean(),
  selfSigned: Type.Boolean(),
  isCa: Type.Boolean(),
});

export const Observation = Type.Object({
  observationId: Uuid,
  endpointId: Uuid,
  endpoint: Type.Object({ host: Type.String(), port: Type.Integer(), serverName: NullableString }),
  address: NullableString,
  observedAtUtc: DateTime,
  state: State,
  protocol: NullableString,
  cipherSuite: NullableString,
  keyExchangeGroup: NamedGroup,
  supportedGroup: NamedGroup,
  hybridKexClassicalAuth: Type.Boolean(),
  verdictReason: NullableString,
  certificates: Type.Array(ObservedCertificate),
  problem: NullableString,
});

export const ObservationPage = TotalEstimatePage(Observation);

export const ObservationListQuery = Type.Object({
  ...TakeSkipQuery,
  state: enumQuery(TLS_OBSERVATION_STATES, 'State:'),
  endpointId: Type.Optional(Uuid),
});

export const ENDPOINT_LIMIT_TEXT = `at most ${MAX_ENDPOINTS_PER_TENANT} per tenant`;
