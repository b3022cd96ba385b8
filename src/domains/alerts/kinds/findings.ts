import { Type } from 'typebox';
import { asSeverity, defineKind, severityAtLeast } from './types';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()]);
const NoSettings = Type.Object({}, { additionalProperties: false });

/**
 * An advisory import raised a vulnerability's severity: one alert per vulnerability for the
 * tenant's repositories where it is exposed and not fixed (the subject includes the new severity,
 * so a second raise alerts again).
 */
export const advisorySeverityRaised = defineKind({
  kind: 'advisory_severity_raised',
  description: 'An advisory affecting the tenant had its severity raised',
  event: 'vulnerability.severity_raised',
  settingsSchema: NoSettings,
  payloadSchema: Type.Object({
    vulnerabilityId: Type.String({ format: 'uuid' }),
    canonicalId: Type.String(),
    previousSeverity: Nullable(Type.String()),
    severity: Type.String(),
    repositoryIds: Type.Array(Type.String({ format: 'uuid' })),
    exposureIds: Type.Array(Type.String({ format: 'uuid' })),
  }),
  candidates: async (db, data) => {
    const exposures = await db
      .selectFrom('vulnerability_exposures')
      .select(['id', 'repository_id'])
      .where('vulnerability_id', '=', data.vulnerabilityId)
      .where('status', '!=', 'fixed')
      .orderBy('id')
      .execute();
    if (exposures.length === 0) return [];
    const repositoryIds = [...new Set(exposures.map((e) => e.repository_id))].sort();
    return [
      {
        subject: `${data.vulnerabilityId}:${data.severity}`,
        severity: asSeverity(data.severity),
        repositoryIds,
        packageId: null,
        ecosystem: null,
        title: `${data.canonicalId} severity raised from ${data.previousSeverity ?? 'unknown'} to ${data.severity}`,
        payload: {
          vulnerabilityId: data.vulnerabilityId,
          canonicalId: data.canonicalId,
          previousSeverity: data.previousSeverity,
          severity: data.severity,
          repositoryIds,
          exposureIds: exposures.map((e) => e.id),
        },
      },
    ];
  },
});

/**
 * A policy violation opened: alerts at or above the rule's severity, and (unless the rule says
 * `blockAlways: false`) whenever the policy's action is `block`, whatever the severity.
 */
export const policyViolationOpened = defineKind({
  kind: 'policy_violation_opened',
  description: 'A policy violation opened at or above the rule severity, or with action block',
  event: 'policy_violation.opened',
  settingsSchema: Type.Object(
    {
      blockAlways: Type.Optional(
        Type.Boolean({
          description: 'Alert on every violation whose action is block (default true)',
        }),
      ),
    },
    { additionalProperties: false },
  ),
  payloadSchema: Type.Object({
    policyId: Type.String({ format: 'uuid' }),
    violationId: Type.String({ format: 'uuid' }),
    repositoryId: Type.String({ format: 'uuid' }),
    packageId: Type.String({ format: 'uuid' }),
    severity: Type.String(),
    action: Type.String(),
  }),
  candidates: async (db, data) => {
    const pkg = await db
      .selectFrom('packages')
      .select(['ecosystem', 'name'])
      .where('id', '=', data.packageId)
      .executeTakeFirst();
    return [
      {
        subject: data.violationId,
        severity: asSeverity(data.severity),
        repositoryIds: [data.repositoryId],
        packageId: data.packageId,
        ecosystem: pkg?.ecosystem ?? null,
        title: `Policy violation (${data.action}, ${data.severity})${pkg ? ` for ${pkg.name}` : ''}`,
        payload: { ...data },
      },
    ];
  },
  matches: (rule, found) =>
    severityAtLeast(found.severity, rule.minSeverity) ||
    (rule.settings.blockAlways !== false && found.payload.action === 'block'),
});

export const scanFailed = defineKind({
  kind: 'scan_failed',
  description: 'A scan of a repository failed (one alert per repository inside the window)',
  event: 'scan.failed',
  settingsSchema: NoSettings,
  payloadSchema: Type.Object({
    scanId: Type.String({ format: 'uuid' }),
    repositoryId: Type.String({ format: 'uuid' }),
    error: Nullable(Type.String()),
  }),
  candidates: async (db, data) => {
    const repository = await db
      .selectFrom('repositories')
      .select('name')
      .where('id', '=', data.repositoryId)
      .executeTakeFirst();
    return [
      {
        subject: data.repositoryId,
        severity: 'medium',
        repositoryIds: [data.repositoryId],
        packageId: null,
        ecosystem: null,
        title: `Scan of ${repository?.name ?? data.repositoryId} failed`,
        payload: { ...data },
      },
    ];
  },
});

export const integrationDisabled = defineKind({
  kind: 'integration_disabled',
  description: 'An outbound integration was disabled (410 or repeated delivery failures)',
  event: 'integration.disabled',
  settingsSchema: NoSettings,
  payloadSchema: Type.Object({
    integrationId: Type.String({ format: 'uuid' }),
    name: Type.String(),
    reason: Type.String(),
  }),
  candidates: async (_db, data) => [
    {
      subject: data.integrationId,
      severity: 'high',
      repositoryIds: [],
      packageId: null,
      ecosystem: null,
      title: `Integration ${data.name} disabled: ${data.reason}`,
      payload: { ...data },
    },
  ],
});
