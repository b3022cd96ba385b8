import { Type } from 'typebox';
import type { SeverityRating } from '../../../intel/osv/types';
import type { TlsEndpointRef, TlsVerdictState } from '../../events';
import { defineKind } from './types';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()]);
const NoSettings = Type.Object({}, { additionalProperties: false });

const endpointFields = {
  endpointId: Type.String({ format: 'uuid' }),
  host: Type.String(),
  port: Type.Integer(),
  serverName: Nullable(Type.String()),
  observationId: Type.String({ format: 'uuid' }),
};

const Verdict = Type.Union([
  Type.Literal('vulnerable'),
  Type.Literal('hybrid'),
  Type.Literal('pq-kex'),
  Type.Literal('quantum-safe'),
]);

/** How far a verdict is from quantum-safe: a move down this scale is a downgrade. */
const RANK: Record<TlsVerdictState, number> = {
  vulnerable: 0,
  hybrid: 1,
  'pq-kex': 1,
  'quantum-safe': 2,
};

function endpointName(ref: TlsEndpointRef): string {
  const name = ref.serverName && ref.serverName !== ref.host ? ` (${ref.serverName})` : '';
  return `${ref.host}:${ref.port}${name}`;
}

/**
 * A watched TLS endpoint's quantum verdict changed (docs/quantum.md#tls-observations): high for
 * a downgrade (hybrid to vulnerable), low otherwise. One alert per change (the observation is
 * the subject), so a rule's window never hides a second change.
 */
export const tlsVerdictChanged = defineKind({
  kind: 'tls_verdict_changed',
  description: "A watched TLS endpoint's post-quantum verdict changed",
  event: 'quantum.tls_verdict_changed',
  settingsSchema: NoSettings,
  payloadSchema: Type.Object({
    ...endpointFields,
    previousState: Verdict,
    state: Verdict,
    hybridKexClassicalAuth: Type.Boolean(),
    verdictReason: Nullable(Type.String()),
    observedAt: Type.String({ format: 'date-time' }),
  }),
  candidates: async (_db, data) => {
    const downgrade = RANK[data.state] < RANK[data.previousState];
    return [
      {
        subject: `${data.endpointId}:${data.observationId}`,
        severity: downgrade ? 'high' : 'low',
        repositoryIds: [],
        packageId: null,
        ecosystem: null,
        title: `TLS endpoint ${endpointName(data)} went from ${data.previousState} to ${data.state}`,
        payload: { ...data },
      },
    ];
  },
});

function expirySeverity(daysLeft: number, expired: boolean): SeverityRating {
  if (expired) return 'critical';
  return daysLeft < 7 ? 'high' : 'medium';
}

/**
 * A certificate of a watched endpoint's chain entered its last 30 days (or was first seen
 * expired): once per endpoint and certificate. Critical when expired, high in the last week.
 */
export const tlsCertificateExpiring = defineKind({
  kind: 'tls_certificate_expiring',
  description: 'A certificate of a watched TLS endpoint expires within 30 days',
  event: 'quantum.tls_certificate_expiring',
  settingsSchema: NoSettings,
  payloadSchema: Type.Object({
    ...endpointFields,
    subject: Type.String(),
    issuer: Type.String(),
    serialNumber: Type.String(),
    fingerprintSha256: Type.String(),
    notAfter: Type.String({ format: 'date-time' }),
    daysLeft: Type.Integer(),
    expired: Type.Boolean(),
  }),
  candidates: async (_db, data) => [
    {
      subject: `${data.endpointId}:${data.fingerprintSha256}`,
      severity: expirySeverity(data.daysLeft, data.expired),
      repositoryIds: [],
      packageId: null,
      ecosystem: null,
      title: data.expired
        ? `The certificate ${data.subject} of ${endpointName(data)} expired on ${data.notAfter}`
        : `The certificate ${data.subject} of ${endpointName(data)} expires on ${data.notAfter}`,
      payload: { ...data },
    },
  ],
});
