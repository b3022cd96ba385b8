import { Type } from 'typebox';
import { notFound } from '../../core/problem';
import { pageOf, parseEnum } from '../../http/query';
import type { RouteApp } from '../../http/route-app';
import { withErrors } from '../../http/schemas';
import { principalOf, tenantDb } from '../../http/scope';
import { EXPOSURE_STATUSES } from '../exposures/tables';
import type { DomainRoutes } from '../route-deps';
import { repositoryCbom } from './cbom';
import { listRepositoryCertificates, presentCertificate } from './certificates';
import {
  listFindings,
  presentFinding,
  reopenExpiredFindings,
  repositoryExists,
  triageFinding,
} from './findings';
import {
  CertificateListQuery,
  FindingListQuery,
  FindingParams,
  FindingTriageRequest,
  QUANTUM_SEVERITIES,
  QuantumCertificateList,
  QuantumFinding,
  QuantumFindingPage,
  RepositoryParam,
} from './schemas';
import { emitInventoryChanged } from './store';
import { CERTIFICATE_PROVENANCES, QUANTUM_CLASSIFICATIONS } from './tables';
import { QUANTUM_TAG, quantumTlsRoutes } from './tls/routes';

function findingRoutes(app: RouteApp): void {
  app.get(
    '/api/v1/repositories/:repositoryId/quantum/findings',
    {
      schema: {
        tags: [QUANTUM_TAG],
        summary: 'Quantum-vulnerable cryptography in a repository: source, keys, libraries',
        params: RepositoryParam,
        querystring: FindingListQuery,
        response: withErrors({ 200: QuantumFindingPage }, [404]),
      },
      config: { role: 'viewer', feature: 'quantum' },
    },
    async (request) => {
      const { repositoryId } = request.params;
      const db = tenantDb(request);
      if (!(await repositoryExists(db, repositoryId))) throw notFound('The repository');
      const page = pageOf(request.query);
      const filter = {
        status: parseEnum('status', request.query.status, EXPOSURE_STATUSES),
        severity: parseEnum('severity', request.query.severity, QUANTUM_SEVERITIES),
        scanId: request.query.scanId,
      };
      await reopenExpiredFindings(db, repositoryId);
      const { rows, total } = await listFindings(db, repositoryId, filter, page);
      return { items: rows.map(presentFinding), totalEstimate: total, ...page };
    },
  );

  app.patch(
    '/api/v1/repositories/:repositoryId/quantum/findings/:findingId',
    {
      schema: {
        tags: [QUANTUM_TAG],
        summary:
          'Triage a quantum finding: open, investigating, affected, not_affected (justification), false_positive, accepted_risk (reason, expiresAtUtc)',
        params: FindingParams,
        body: FindingTriageRequest,
        response: withErrors({ 200: QuantumFinding }, [404, 413, 415, 422]),
      },
      config: {
        role: 'member',
        feature: 'quantum',
        audit: { action: 'quantum_finding.triage', resourceType: 'quantum_finding' },
      },
    },
    async (request) => {
      const { repositoryId, findingId } = request.params;
      request.auditDetails = { repositoryId, requested: request.body.status };
      const { row, from } = await triageFinding(
        tenantDb(request),
        principalOf(request),
        { repositoryId, findingId },
        request.body,
      );
      request.auditResourceId = row.id;
      request.auditDetails = { repositoryId, from, to: row.status };
      if (from !== row.status) {
        await emitInventoryChanged(tenantDb(request), {
          tenantId: principalOf(request).tenantId,
          repositoryId,
          correlationId: request.id,
        });
      }
      return presentFinding(row);
    },
  );
}

function certificateRoutes(app: RouteApp): void {
  app.get(
    '/api/v1/repositories/:repositoryId/quantum/certificates',
    {
      schema: {
        tags: [QUANTUM_TAG],
        summary: "Certificates in a repository's files and on its linked TLS endpoints",
        params: RepositoryParam,
        querystring: CertificateListQuery,
        response: withErrors({ 200: QuantumCertificateList }, [404]),
      },
      config: { role: 'viewer', feature: 'quantum' },
    },
    async (request) => {
      const { repositoryId } = request.params;
      const db = tenantDb(request);
      if (!(await repositoryExists(db, repositoryId))) throw notFound('The repository');
      const rows = await listRepositoryCertificates(db, repositoryId, {
        classification: parseEnum(
          'classification',
          request.query.classification,
          QUANTUM_CLASSIFICATIONS,
        ),
        provenance: parseEnum('provenance', request.query.provenance, CERTIFICATE_PROVENANCES),
      });
      const now = new Date();
      return { items: rows.map((row) => presentCertificate(row, now)) };
    },
  );
}

function cbomRoutes(app: RouteApp, buildInfo: { product: string; version: string }): void {
  app.get(
    '/api/v1/repositories/:repositoryId/quantum/cbom',
    {
      schema: {
        tags: [QUANTUM_TAG],
        operationId: 'downloadCbom',
        summary: "The repository's CycloneDX 1.6 cryptography bill of materials",
        params: RepositoryParam,
        response: withErrors(
          { 200: Type.Unknown({ description: 'The CycloneDX 1.6 JSON document' }) },
          [404],
        ),
      },
      config: { role: 'viewer', feature: 'quantum' },
    },
    async (request, reply) => {
      const { repositoryId } = request.params;
      const document = await repositoryCbom(tenantDb(request), repositoryId, {
        name: buildInfo.product,
        version: buildInfo.version,
      });
      if (!document) throw notFound('The repository');
      return reply
        .code(200)
        .type('application/vnd.cyclonedx+json')
        .header('Content-Disposition', `attachment; filename="cbom-${repositoryId}.cdx.json"`)
        .serializer((payload: unknown) => JSON.stringify(payload))
        .send(document);
    },
  );
}

/** The quantum area's routes (docs/quantum.md), behind the `quantum` feature. */
export const quantumRoutes: DomainRoutes = (deps) => async (app) => {
  findingRoutes(app);
  certificateRoutes(app);
  cbomRoutes(app, deps.buildInfo);
  await app.register(quantumTlsRoutes(deps));
};
