import { Type } from 'typebox';
import { TakeSkipQuery } from '../../http/query';
import {
  DateTime,
  NullableDateTime,
  NullableString,
  TotalEstimatePage,
  Uuid,
} from '../../http/schemas';
import { EVIDENCE_KINDS } from './controls';

const Kind = Type.Enum(EVIDENCE_KINDS);

export const Control = Type.Object({
  controlId: Type.String({ description: 'e.g. soc2-cc7.1, iso27001-a.8.8, cra-ii-1' }),
  framework: Type.String(),
  reference: Type.String(),
  title: Type.String(),
  description: Type.String(),
  relatedRequirements: Type.Array(Type.String()),
  evidenceKinds: Type.Array(Kind),
  evidencePath: Type.String(),
});

export const ControlList = Type.Object({ items: Type.Array(Control) });

export const ControlParams = Type.Object({
  controlId: Type.String({ minLength: 1, maxLength: 64 }),
});

const PeriodFields = {
  periodStart: Type.Optional(
    Type.String({
      maxLength: 64,
      description: 'ISO 8601 UTC date (that day 00:00) or date-time ending in Z; required',
    }),
  ),
  periodEnd: Type.Optional(
    Type.String({
      maxLength: 64,
      description:
        'ISO 8601 UTC date (through the end of that day) or date-time (exclusive); required; at most one year after periodStart',
    }),
  ),
};

export const EvidenceQuery = Type.Object(PeriodFields);
export const ArchiveRequest = Type.Object(PeriodFields, { additionalProperties: false });

const RecordRef = Type.Object({
  type: Type.String(),
  id: Type.String(),
  path: Type.String({ description: 'Where the API shows the record' }),
  note: Type.String(),
});

const EvidenceItem = Type.Object({
  kind: Kind,
  title: Type.String(),
  source: Type.String(),
  collectedAtUtc: DateTime,
  validUntilUtc: DateTime,
  status: Type.Enum(['passing', 'failing', 'no_evidence', 'informational'] as const),
  summary: Type.String(),
  figures: Type.Record(Type.String(), Type.Unknown()),
  gaps: Type.Array(Type.String()),
  records: Type.Array(RecordRef),
  recordsTotal: Type.Integer(),
  sha256: Type.String(),
});

export const ControlEvidence = Type.Object({
  control: Type.Omit(Control, ['evidencePath']),
  periodStartUtc: DateTime,
  periodEndUtc: DateTime,
  evaluatedUntilUtc: DateTime,
  generatedAtUtc: DateTime,
  testStatus: Type.Enum(['passing', 'failing', 'insufficient_evidence'] as const),
  result: Type.Enum(['compliant', 'partially_compliant', 'non_compliant', 'not_assessed'] as const),
  evidence: Type.Array(EvidenceItem),
  gaps: Type.Array(Type.String()),
});

const Targets = Type.Object(
  {
    critical: Type.Integer({ minimum: 1, maximum: 3650 }),
    high: Type.Integer({ minimum: 1, maximum: 3650 }),
    medium: Type.Integer({ minimum: 1, maximum: 3650 }),
    low: Type.Integer({ minimum: 1, maximum: 3650 }),
  },
  { additionalProperties: false },
);

export const SettingsBody = Type.Object(
  { remediationTargetDays: Targets },
  { additionalProperties: false },
);

export const Settings = Type.Object({
  remediationTargetDays: Targets,
  source: Type.Union([Type.Literal('default'), Type.Literal('tenant')]),
  updatedAtUtc: NullableDateTime,
  updatedByTokenId: NullableString,
});

export const Archive = Type.Object({
  archiveId: Uuid,
  state: Type.Enum(['queued', 'generating', 'ready', 'failed'] as const),
  periodStartUtc: DateTime,
  periodEndUtc: DateTime,
  requestedByTokenId: NullableString,
  archiveBytes: Type.Union([Type.Integer(), Type.Null()]),
  archiveSha256: NullableString,
  manifestSha256: NullableString,
  signingKeyId: NullableString,
  error: NullableString,
  createdAtUtc: DateTime,
  startedAtUtc: NullableDateTime,
  finishedAtUtc: NullableDateTime,
  downloadPath: NullableString,
});

export const ArchivePage = TotalEstimatePage(Archive);
export const ArchiveListQuery = Type.Object({ ...TakeSkipQuery });
export const ArchiveParams = Type.Object({ archiveId: Uuid });
