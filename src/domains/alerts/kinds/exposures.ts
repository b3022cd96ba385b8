import { Type } from 'typebox';
import type { ExposuresChanged, MaliciousExposuresFound } from '../../events';
import { type AlertCandidate, asSeverity, defineKind } from './types';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()]);

/** The payload of both exposure kinds: the exposure and where it was found. */
export const ExposureAlertPayload = Type.Object({
  repositoryId: Type.String({ format: 'uuid' }),
  scanId: Nullable(Type.String({ format: 'uuid' })),
  exposureId: Type.String({ format: 'uuid' }),
  packageId: Type.String({ format: 'uuid' }),
  ecosystem: Type.String(),
  packageName: Type.String(),
  version: Nullable(Type.String()),
  vulnerabilityId: Type.String({ format: 'uuid' }),
  canonicalId: Type.String(),
  severity: Nullable(Type.String()),
  kind: Type.Union([Type.Literal('vulnerability'), Type.Literal('malicious')]),
});

/** The payload of `malicious_package`: the exposure, and whether it came back. */
export const MaliciousAlertPayload = Type.Object({
  ...ExposureAlertPayload.properties,
  reintroduced: Type.Boolean(),
});

/** Vulnerability exposures only: malicious packages alert through `malicious_package`. */
function exposureCandidates(verb: string) {
  return async (_db: unknown, data: ExposuresChanged): Promise<AlertCandidate[]> =>
    data.exposures
      .filter((exposure) => exposure.kind !== 'malicious')
      .map((exposure) => ({
        subject: exposure.exposureId,
        severity: asSeverity(exposure.severity),
        repositoryIds: [data.repositoryId],
        packageId: exposure.packageId,
        ecosystem: exposure.ecosystem,
        title: `${exposure.canonicalId} ${verb} in ${exposure.packageName}${exposure.version ? `@${exposure.version}` : ''}`,
        payload: { repositoryId: data.repositoryId, scanId: data.scanId, ...exposure },
      }));
}

export const exposureOpened = defineKind({
  kind: 'exposure_opened',
  description: 'A new vulnerability exposure at or above the rule severity',
  event: 'exposures.opened',
  settingsSchema: Type.Object({}, { additionalProperties: false }),
  payloadSchema: ExposureAlertPayload,
  candidates: exposureCandidates('found'),
});

export const exposureReopened = defineKind({
  kind: 'exposure_reopened',
  description: 'An exposure closed as fixed came back (its version was reintroduced)',
  event: 'exposures.reopened',
  settingsSchema: Type.Object({}, { additionalProperties: false }),
  payloadSchema: ExposureAlertPayload,
  candidates: exposureCandidates('reintroduced'),
});

export const maliciousPackage = defineKind({
  kind: 'malicious_package',
  description:
    'A malicious package (an OSV MAL- record) is used: found, or its version reintroduced; always critical',
  event: 'exposures.malicious_found',
  settingsSchema: Type.Object({}, { additionalProperties: false }),
  payloadSchema: MaliciousAlertPayload,
  candidates: async (_db: unknown, data: MaliciousExposuresFound): Promise<AlertCandidate[]> =>
    data.exposures.map((exposure) => ({
      subject: exposure.exposureId,
      severity: 'critical',
      repositoryIds: [data.repositoryId],
      packageId: exposure.packageId,
      ecosystem: exposure.ecosystem,
      title: `Malicious package ${exposure.packageName}${exposure.version ? `@${exposure.version}` : ''} (${exposure.canonicalId})${exposure.reintroduced ? ' reintroduced' : ''}`,
      payload: { repositoryId: data.repositoryId, scanId: data.scanId, ...exposure },
    })),
});
