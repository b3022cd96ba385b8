import { Type } from 'typebox';
import { enumQuery, TakeSkipQuery, TimeWindowQuery } from '../../http/query';
import { DateTime, NullableDateTime, TotalEstimatePage, Uuid } from '../../http/schemas';
import { SEVERITY_RATINGS } from '../../intel/osv/types';
import { ALERT_KIND_NAMES } from './kinds';
import { ALERT_STATUSES } from './tables';

/** Request and response shapes of the alert and alert-rule endpoints (docs/alerts.md). */

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()]);

export const MAX_DEDUPE_WINDOW_MINUTES = 30 * 24 * 60;
export const DEFAULT_DEDUPE_WINDOW_MINUTES = 24 * 60;

const RuleFilters = Type.Object(
  {
    repositoryIds: Type.Optional(
      Type.Array(Uuid, {
        maxItems: 500,
        description: 'Only these repositories (empty or absent: every repository)',
      }),
    ),
    ecosystems: Type.Optional(
      Type.Array(Type.String(), {
        maxItems: 20,
        description: 'Only packages of these ecosystems (empty or absent: every ecosystem)',
      }),
    ),
    minSeverity: Type.Optional(
      Nullable(Type.String({ description: `Minimum severity: ${SEVERITY_RATINGS.join(', ')}` })),
    ),
  },
  { additionalProperties: false },
);

const ruleFields = {
  name: Type.String({ minLength: 1, maxLength: 200 }),
  kind: Type.String({ description: `The alert kind: ${ALERT_KIND_NAMES.join(', ')}` }),
  enabled: Type.Optional(Type.Boolean({ description: 'Default true' })),
  filters: Type.Optional(RuleFilters),
  settings: Type.Optional(
    Type.Object(
      {},
      {
        additionalProperties: true,
        description:
          'Kind-specific thresholds (health_score: below, droppedBy; policy_violation_opened: blockAlways)',
      },
    ),
  ),
  dedupeWindowMinutes: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: MAX_DEDUPE_WINDOW_MINUTES,
      description: `The same subject alerts at most once inside this window (default ${DEFAULT_DEDUPE_WINDOW_MINUTES})`,
    }),
  ),
  channels: Type.Optional(
    Type.Array(Uuid, { maxItems: 20, description: 'Integration ids the alerts are delivered to' }),
  ),
};

export const CreateAlertRuleRequest = Type.Object(ruleFields, { additionalProperties: false });

export const UpdateAlertRuleRequest = Type.Object(
  { ...ruleFields, name: Type.Optional(ruleFields.name), kind: Type.Optional(ruleFields.kind) },
  { additionalProperties: false },
);

export const AlertRule = Type.Object({
  alertRuleId: Uuid,
  name: Type.String(),
  kind: Type.String(),
  enabled: Type.Boolean(),
  filters: Type.Object({
    repositoryIds: Type.Array(Uuid),
    ecosystems: Type.Array(Type.String()),
    minSeverity: Nullable(Type.String()),
  }),
  settings: Type.Record(Type.String(), Type.Unknown()),
  dedupeWindowMinutes: Type.Integer(),
  channels: Type.Array(Uuid),
  createdAtUtc: DateTime,
  updatedAtUtc: DateTime,
});

export const AlertRuleList = Type.Object({ items: Type.Array(AlertRule) });

export const AlertListQuery = Type.Object({
  ...TakeSkipQuery,
  ...TimeWindowQuery,
  kind: enumQuery(ALERT_KIND_NAMES, 'Kind:'),
  severity: enumQuery(SEVERITY_RATINGS, 'Severity:'),
  status: enumQuery(ALERT_STATUSES, 'Status:'),
  repositoryId: Type.Optional(Uuid),
});

export const Alert = Type.Object({
  alertId: Uuid,
  alertRuleId: Uuid,
  ruleName: Type.String(),
  kind: Type.String(),
  severity: Nullable(Type.String()),
  status: Type.String({ description: ALERT_STATUSES.join(', ') }),
  subject: Type.String(),
  title: Type.String(),
  repositoryIds: Type.Array(Uuid),
  packageId: Nullable(Uuid),
  payload: Type.Record(Type.String(), Type.Unknown()),
  raisedAtUtc: DateTime,
  acknowledgedAtUtc: NullableDateTime,
  acknowledgedByTokenId: Nullable(Uuid),
  note: Nullable(Type.String()),
});

export const AlertPage = TotalEstimatePage(Alert);

export const AcknowledgeAlertRequest = Type.Object(
  {
    status: Type.Optional(
      Type.String({ description: 'acknowledged (the default; the only move there is)' }),
    ),
    note: Type.Optional(Nullable(Type.String({ description: 'Why, or what was done' }))),
  },
  { additionalProperties: false },
);
