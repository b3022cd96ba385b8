import { Type } from 'typebox';
import { enumQuery, TakeSkipQuery } from '../../http/query';
import { DateTime, NullableDateTime, TotalEstimatePage, Uuid } from '../../http/schemas';
import { EXCEPTION_SCOPES, POLICY_ACTIONS, POLICY_SEVERITIES, VIOLATION_STATUSES } from './tables';
import { TRIAGE_STATUSES } from './violations/state-machine';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()]);

const ScopeLists = {
  repositoryIds: Type.Array(Uuid, { maxItems: 1000, description: 'Only these repositories' }),
  ecosystems: Type.Array(Type.String(), {
    maxItems: 20,
    description: 'Only dependencies of these ecosystems (npm, PyPI, ...)',
  }),
  businessCriticalities: Type.Array(Type.String(), {
    maxItems: 10,
    description: 'Only repositories of these criticalities (low, medium, high, critical)',
  }),
  lifecycleStatuses: Type.Array(Type.String(), {
    maxItems: 10,
    description: 'Only repositories in these lifecycle statuses (active, maintenance, ...)',
  }),
};

export const PolicyScopeSchema = Type.Object(ScopeLists, {
  description: 'Where the policy applies; an empty list does not narrow (all)',
});

const ScopeInput = Type.Object({
  repositoryIds: Type.Optional(ScopeLists.repositoryIds),
  ecosystems: Type.Optional(ScopeLists.ecosystems),
  businessCriticalities: Type.Optional(ScopeLists.businessCriticalities),
  lifecycleStatuses: Type.Optional(ScopeLists.lifecycleStatuses),
});

const Name = Type.String({ minLength: 1, maxLength: 200 });
const Description = Type.String({ maxLength: 4000 });
const Condition = Type.String({
  maxLength: 4000,
  description: 'CEL expression over the facts of one dependency (docs/policies.md)',
});
const Severity = Type.String({
  description: `Violation severity: ${POLICY_SEVERITIES.join(', ')}`,
});
const Action = Type.String({ description: `What a violation means: ${POLICY_ACTIONS.join(', ')}` });

export const CreatePolicyRequest = Type.Object({
  name: Name,
  description: Type.Optional(Description),
  condition: Condition,
  severity: Severity,
  action: Action,
  enabled: Type.Optional(Type.Boolean({ description: 'Default true' })),
  scope: Type.Optional(ScopeInput),
});

export const UpdatePolicyRequest = Type.Object({
  name: Type.Optional(Name),
  description: Type.Optional(Description),
  condition: Type.Optional(Condition),
  severity: Type.Optional(Severity),
  action: Type.Optional(Action),
  enabled: Type.Optional(Type.Boolean()),
  scope: Type.Optional(ScopeInput),
});

export const Policy = Type.Object({
  policyId: Uuid,
  name: Type.String(),
  description: Type.String(),
  condition: Type.String(),
  severity: Type.String({ description: POLICY_SEVERITIES.join(', ') }),
  action: Type.String({ description: POLICY_ACTIONS.join(', ') }),
  enabled: Type.Boolean(),
  scope: PolicyScopeSchema,
  version: Type.Integer({ description: 'Incremented on every change' }),
  createdAtUtc: DateTime,
  updatedAtUtc: DateTime,
});

export const PolicyPage = TotalEstimatePage(Policy);
export const PolicyListQuery = Type.Object({ ...TakeSkipQuery });

export const TestPolicyRequest = Type.Object({
  condition: Type.Optional(
    Type.String({
      maxLength: 4000,
      description: 'A draft condition to evaluate instead of the stored one',
    }),
  ),
  repositoryId: Type.Optional(Uuid),
  take: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 1000, description: 'Would-be violations listed (200)' }),
  ),
});

const Facts = Type.Record(Type.String(), Type.Unknown(), {
  description: 'The facts that made the condition true (docs/policies.md#facts)',
});

const WouldBeViolation = Type.Object({
  repositoryId: Uuid,
  packageId: Uuid,
  purl: Type.String(),
  ecosystem: Type.String(),
  packageName: Type.String(),
  version: Nullable(Type.String()),
  existingViolationId: Nullable(Uuid),
  existingStatus: Nullable(Type.String()),
  facts: Facts,
});

export const PolicyTestResult = Type.Object({
  policyId: Uuid,
  condition: Type.String(),
  counts: Type.Object({
    repositoriesEvaluated: Type.Integer(),
    dependenciesEvaluated: Type.Integer(),
    violations: Type.Integer({ description: 'Dependencies for which the condition holds' }),
    new: Type.Integer({ description: 'Of those, not an unresolved violation today' }),
    wouldResolve: Type.Integer({
      description: 'Unresolved violations of this policy whose condition would no longer hold',
    }),
  }),
  violations: Type.Array(WouldBeViolation, { description: 'The first `take` would-be violations' }),
  truncated: Type.Boolean(),
});

export const PolicyViolation = Type.Object({
  violationId: Uuid,
  policyId: Uuid,
  policyName: Type.String(),
  severity: Type.String({ description: POLICY_SEVERITIES.join(', ') }),
  action: Type.String({ description: POLICY_ACTIONS.join(', ') }),
  status: Type.String({ description: VIOLATION_STATUSES.join(', ') }),
  blocking: Type.Boolean({
    description:
      'Action block and status open or acknowledged: what the CI gate and the IDE verdicts block on',
  }),
  detectedAtUtc: DateTime,
  repositoryId: Uuid,
  packageId: Uuid,
  purl: Type.String(),
  ecosystem: Type.String(),
  packageName: Type.String(),
  version: Nullable(Type.String()),
  file: Nullable(
    Type.String({
      description:
        "The file of the repository's current scan that declares the dependency (direct declarations first); null when the dependency is gone",
    }),
  ),
  line: Nullable(
    Type.Integer({ description: 'Its line in that file, when the extractor knows it' }),
  ),
  reason: Nullable(Type.String()),
  exceptionId: Nullable(Uuid),
  statusChangedAtUtc: NullableDateTime,
  statusChangedByTokenId: Nullable(Uuid),
  resolvedAtUtc: NullableDateTime,
  lastEvaluatedAtUtc: Type.String({
    format: 'date-time',
    description: 'When an evaluation last changed its facts, status or policy version',
  }),
  reopenedCount: Type.Integer(),
  facts: Facts,
});

export const PolicyViolationPage = TotalEstimatePage(PolicyViolation);

export const ViolationListQuery = Type.Object({
  ...TakeSkipQuery,
  policyId: Type.Optional(Uuid),
  repositoryId: Type.Optional(Uuid),
  packageId: Type.Optional(Uuid),
  severity: enumQuery(POLICY_SEVERITIES, 'Severity:'),
  status: enumQuery(VIOLATION_STATUSES, 'Status:'),
});

export const ViolationTransitionRequest = Type.Object({
  status: Type.String({
    description: `New status: ${TRIAGE_STATUSES.join(', ')} (excepted and resolved are not set by hand)`,
  }),
  reason: Type.Optional(
    Nullable(Type.String({ description: 'Why (audit log); required for dismissed' })),
  ),
});

export const GrantExceptionRequest = Type.Object({
  reason: Type.String({ description: 'Why the exception is granted (required)' }),
  expiresAtUtc: Type.String({
    format: 'date-time',
    description: 'When it ends (required; at most the configured maximum ahead)',
  }),
  scope: Type.Optional(
    Type.String({
      description: `${EXCEPTION_SCOPES.join(', ')} (default violation): this violation, this package in this repository, this package everywhere in the tenant; the wider scopes cover future violations of the same policy`,
    }),
  ),
});

export const PolicyException = Type.Object({
  exceptionId: Uuid,
  policyId: Uuid,
  violationId: Nullable(Uuid),
  scope: Type.String({ description: EXCEPTION_SCOPES.join(', ') }),
  repositoryId: Nullable(Uuid),
  packageId: Uuid,
  version: Nullable(Type.String()),
  reason: Type.String(),
  expiresAtUtc: DateTime,
  status: Type.String({ description: 'active or expired' }),
  createdAtUtc: DateTime,
  createdByTokenId: Nullable(Uuid),
  expiredAtUtc: NullableDateTime,
});

export const PolicyExceptionPage = TotalEstimatePage(PolicyException);

export const ExceptionListQuery = Type.Object({
  ...TakeSkipQuery,
  policyId: Type.Optional(Uuid),
  packageId: Type.Optional(Uuid),
  status: enumQuery(['active', 'expired'], 'Status:'),
});

export const PolicyEvaluationProgress = Type.Object({
  repositoryId: Uuid,
  state: Type.String({
    description:
      'current: every policy is evaluated here at its current version and no evaluation asked for is waiting; pending otherwise',
  }),
  pendingPolicies: Type.Array(
    Type.Object({
      policyId: Uuid,
      name: Type.String(),
      version: Type.Integer(),
      evaluatedVersion: Nullable(Type.Integer({ description: 'null: never evaluated here' })),
    }),
    { description: 'Policies created or changed whose evaluation here has not committed yet' },
  ),
  pendingRequests: Type.Array(
    Type.Object({ requestId: Uuid, reason: Type.String(), requestedAtUtc: DateTime }),
    { description: 'Evaluations asked for after a fact changed (an exposure status, drift)' },
  ),
  policies: Type.Integer({ description: "The tenant's policies" }),
  lastEvaluatedAtUtc: NullableDateTime,
});
