import { Type } from 'typebox';
import { notFound } from '../../core/problem';
import type { Database } from '../../db/connection';
import { pageOf } from '../../http/query';
import type { RouteApp } from '../../http/route-app';
import { UuidParam, withErrors } from '../../http/schemas';
import { principalOf, tenantDb } from '../../http/scope';
import type { SecretBox } from '../../security/secret-box';
import type { DomainRoutes } from '../route-deps';
import { archiveDownload, presentArchive, requestArchive } from './archives';
import { CONTROLS } from './controls';
import { parsePeriod } from './period';
import {
  Archive,
  ArchiveListQuery,
  ArchivePage,
  ArchiveRequest,
  ControlEvidence,
  ControlList,
  ControlParams,
  EvidenceQuery,
  Settings,
  SettingsBody,
} from './schemas';
import { controlEvidence, presentControl } from './service';
import { publicSigningKey } from './signing';
import { findArchive, listArchives } from './store';
import { readTargets, type TargetSettings, writeTargets } from './targets';

const TAG = 'Compliance';
const FEATURE = 'compliance_evidence' as const;

function controlRoutes(app: RouteApp): void {
  app.get(
    '/api/v1/compliance/controls',
    {
      schema: {
        tags: [TAG],
        operationId: 'listComplianceControls',
        summary:
          'The controls the service can evidence (SOC 2, ISO/IEC 27001:2022, CRA Annex I Part II)',
        response: withErrors({ 200: ControlList }),
      },
      config: { role: 'viewer', feature: FEATURE },
    },
    async () => ({ items: CONTROLS.map(presentControl) }),
  );

  app.get(
    '/api/v1/compliance/controls/:controlId/evidence',
    {
      schema: {
        tags: [TAG],
        operationId: 'getComplianceControlEvidence',
        summary:
          "A control's evidence for a period, computed from the service's records (400 on a missing, malformed or reversed period or one longer than a year)",
        params: ControlParams,
        querystring: EvidenceQuery,
        response: withErrors({ 200: ControlEvidence }, [404]),
      },
      // Admin: the evidence quotes the audit log, which is admin-only.
      config: { role: 'admin', feature: FEATURE },
    },
    async (request) => {
      const period = parsePeriod(request.query);
      return controlEvidence(tenantDb(request), request.params.controlId, period);
    },
  );
}

const presentSettings = (s: TargetSettings) => ({
  remediationTargetDays: s.targets,
  source: s.source,
  updatedAtUtc: s.updatedAtUtc,
  updatedByTokenId: s.updatedByTokenId,
});

function settingsRoutes(app: RouteApp): void {
  app.get(
    '/api/v1/compliance/settings',
    {
      schema: {
        tags: [TAG],
        summary:
          'Remediation targets (days from detection to fix per severity) evidence is judged by',
        response: withErrors({ 200: Settings }),
      },
      config: { role: 'viewer', feature: FEATURE },
    },
    async (request) => presentSettings(await readTargets(tenantDb(request))),
  );

  app.put(
    '/api/v1/compliance/settings',
    {
      schema: {
        tags: [TAG],
        summary: 'Replace the remediation targets',
        body: SettingsBody,
        response: withErrors({ 200: Settings }, [413, 415]),
      },
      config: {
        role: 'admin',
        feature: FEATURE,
        audit: { action: 'compliance_settings.update', resourceType: 'compliance_settings' },
      },
    },
    async (request) => {
      const targets = request.body.remediationTargetDays;
      request.auditDetails = { remediationTargetDays: targets };
      const saved = await writeTargets(tenantDb(request), targets, principalOf(request).tokenId);
      return presentSettings(saved);
    },
  );
}

function archiveRequestRoutes(app: RouteApp): void {
  app.post(
    '/api/v1/compliance/evidence-archives',
    {
      schema: {
        tags: [TAG],
        operationId: 'generateComplianceEvidenceArchive',
        summary:
          'Generate a signed evidence archive of every control for a period (202; a job): a zip of JSON and CSV per control, a SHA-256 manifest and its Ed25519 signature',
        body: ArchiveRequest,
        response: withErrors({ 202: Archive }, [413, 415]),
      },
      config: {
        role: 'admin',
        feature: FEATURE,
        audit: {
          action: 'compliance_archive.generate',
          resourceType: 'compliance_evidence_archive',
        },
      },
    },
    async (request, reply) => {
      const period = parsePeriod(request.body);
      const row = await requestArchive(tenantDb(request), principalOf(request), period, request.id);
      request.auditResourceId = row.id;
      request.auditDetails = {
        periodStartUtc: period.start.toISOString(),
        periodEndUtc: period.end.toISOString(),
      };
      return reply
        .code(202)
        .header('Location', `/api/v1/compliance/evidence-archives/${row.id}`)
        .send(presentArchive(row));
    },
  );

  app.get(
    '/api/v1/compliance/evidence-archives',
    {
      schema: {
        tags: [TAG],
        summary: 'Evidence archives, newest first',
        querystring: ArchiveListQuery,
        response: withErrors({ 200: ArchivePage }),
      },
      config: { role: 'admin', feature: FEATURE },
    },
    async (request) => {
      const page = pageOf(request.query);
      const { rows, total } = await listArchives(tenantDb(request), page);
      return { items: rows.map(presentArchive), totalEstimate: total, ...page };
    },
  );
}

function archiveRoutes(app: RouteApp): void {
  app.get(
    '/api/v1/compliance/evidence-archives/:archiveId',
    {
      schema: {
        tags: [TAG],
        summary: "An evidence archive's status",
        params: UuidParam('archiveId'),
        response: withErrors({ 200: Archive }, [404]),
      },
      config: { role: 'admin', feature: FEATURE },
    },
    async (request) => {
      const row = await findArchive(tenantDb(request), request.params.archiveId);
      if (!row) throw notFound('The evidence archive');
      return presentArchive(row);
    },
  );

  app.get(
    '/api/v1/compliance/evidence-archives/:archiveId/download',
    {
      schema: {
        tags: [TAG],
        operationId: 'downloadComplianceEvidenceArchive',
        summary: 'The archive (application/zip); 409 until it is ready',
        params: UuidParam('archiveId'),
        response: withErrors({ 200: Type.Unknown({ description: 'The zip archive' }) }, [404, 409]),
      },
      config: {
        role: 'admin',
        feature: FEATURE,
        audit: {
          action: 'compliance_archive.download',
          resourceType: 'compliance_evidence_archive',
        },
      },
    },
    async (request, reply) => {
      const { row, zip } = await archiveDownload(tenantDb(request), request.params.archiveId);
      request.auditResourceId = row.id;
      return reply
        .code(200)
        .type('application/zip')
        .header('Content-Disposition', `attachment; filename="evidence-archive-${row.id}.zip"`)
        .header(
          'Digest',
          `sha-256=${Buffer.from(row.archive_sha256 ?? '', 'hex').toString('base64')}`,
        )
        .send(zip);
    },
  );
}

/** The public key archives are signed with (PEM), public so an auditor can fetch it directly. */
function signingKeyRoute(app: RouteApp, database: Database, box: SecretBox): void {
  app.get(
    '/api/v1/compliance/signing-key',
    {
      schema: {
        tags: [TAG],
        operationId: 'getComplianceSigningKey',
        summary:
          "The service's Ed25519 public key evidence archives are signed with (PEM, SubjectPublicKeyInfo); no token needed",
        response: withErrors(
          { 200: Type.String({ description: 'PEM public key; X-Signing-Key-Id carries its id' }) },
          [],
          { authenticated: false },
        ),
      },
      config: { auth: false },
    },
    async (_request, reply) => {
      const key = await publicSigningKey(database.system, box);
      return reply
        .code(200)
        .type('application/x-pem-file')
        .header('X-Signing-Key-Id', key.keyId)
        .header('Cache-Control', 'public, max-age=300')
        .send(key.publicKeyPem);
    },
  );
}

/** Compliance control evidence (docs/compliance.md). */
export const complianceRoutes: DomainRoutes = (deps) => async (app) => {
  controlRoutes(app);
  settingsRoutes(app);
  archiveRequestRoutes(app);
  archiveRoutes(app);
  signingKeyRoute(app, deps.database, deps.secretBox);
};
