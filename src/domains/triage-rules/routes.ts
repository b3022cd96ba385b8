import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { iso } from '../../core/iso-time';
import { notFound } from '../../core/problem';
import { getEcosystem } from '../../ecosystems/ecosystem-list';
import { buildPurl } from '../../ecosystems/purl';
import type { Ecosystem } from '../../ecosystems/types';
import { ECOSYSTEMS } from '../../ecosystems/types';
import { pageOf, parseEnum } from '../../http/query';
import type { RouteApp } from '../../http/route-app';
import { NoContent, UuidParam, withErrors } from '../../http/schemas';
import { principalOf, tenantDb } from '../../http/scope';
import {
  CreatedTriageRule,
  CreateTriageRuleRequest,
  TriageRule,
  TriageRuleListQuery,
  TriageRulePage,
} from './schemas';
import { createTriageRule, revokeTriageRule } from './service';
import { findTriageRule, listTriageRules, type TriageRuleRow } from './store';
import { RULE_STATUSES } from './tables';
import { vexRoutes } from './vex/routes';

const TAG = 'Triage rules';

export function presentTriageRule(row: TriageRuleRow, now = new Date()) {
  return {
    triageRuleId: row.id,
    vulnerability: row.vulnerability_ref,
    ecosystem: row.ecosystem,
    packageName: row.package_name,
    purl: buildPurl(getEcosystem(row.ecosystem as Ecosystem).purlType, row.package_name, null),
    versionRange: row.version_range,
    repositoryIds: row.repository_ids,
    status: row.status,
    justification: row.justification,
    reason: row.reason,
    expiresAtUtc: iso(row.expires_at),
    origin: row.origin,
    active: row.revoked_at === null && (row.expires_at === null || row.expires_at > now),
    exposureCount: Number(row.exposure_count),
    createdAtUtc: row.created_at.toISOString(),
    createdByTokenId: row.created_by_token_id,
    revokedAtUtc: iso(row.revoked_at),
    revokedByTokenId: row.revoked_by_token_id,
  };
}

function collectionRoutes(app: RouteApp): void {
  app.get(
    '/api/v1/triage-rules',
    {
      schema: {
        tags: [TAG],
        summary: "The tenant's triage rules, live and revoked (newest first)",
        querystring: TriageRuleListQuery,
        response: withErrors({ 200: TriageRulePage }),
      },
      config: { role: 'viewer' },
    },
    async (request) => {
      const query = request.query;
      const page = pageOf(query);
      const { rows, total } = await listTriageRules(
        tenantDb(request),
        {
          status: parseEnum('status', query.status, RULE_STATUSES),
          ecosystem: parseEnum('ecosystem', query.ecosystem, ECOSYSTEMS),
          active: query.active,
        },
        page,
      );
      return { items: rows.map((row) => presentTriageRule(row)), totalEstimate: total, ...page };
    },
  );

  app.post(
    '/api/v1/triage-rules',
    {
      schema: {
        tags: [TAG],
        summary:
          'Create a triage rule: a vulnerability, a package (versions, repositories) and the status its exposures get, now and later',
        body: CreateTriageRuleRequest,
        response: withErrors({ 201: CreatedTriageRule }, [413, 415, 422]),
      },
      config: {
        role: 'member',
        audit: { action: 'triage_rule.create', resourceType: 'triage_rule' },
      },
    },
    async (request, reply) => {
      const { rule, settled } = await createTriageRule(
        tenantDb(request),
        principalOf(request),
        request.body,
      );
      request.auditResourceId = rule.id;
      request.auditDetails = { exposuresSettled: settled };
      return reply.code(201).send({ ...presentTriageRule(rule), exposuresSettled: settled });
    },
  );
}

function itemRoutes(app: RouteApp): void {
  app.get(
    '/api/v1/triage-rules/:triageRuleId',
    {
      schema: {
        tags: [TAG],
        summary: 'One triage rule',
        params: UuidParam('triageRuleId'),
        response: withErrors({ 200: TriageRule }, [404]),
      },
      config: { role: 'viewer' },
    },
    async (request) => {
      const row = await findTriageRule(tenantDb(request), request.params.triageRuleId);
      if (!row) throw notFound('The triage rule');
      return presentTriageRule(row);
    },
  );

  app.delete(
    '/api/v1/triage-rules/:triageRuleId',
    {
      schema: {
        tags: [TAG],
        summary:
          'Revoke a triage rule: the exposures it settled reopen (the rule stays, revoked, for the record)',
        params: UuidParam('triageRuleId'),
        response: withErrors({ 204: NoContent }, [404]),
      },
      config: {
        role: 'member',
        audit: { action: 'triage_rule.revoke', resourceType: 'triage_rule' },
      },
    },
    async (request, reply) => {
      const reopened = await revokeTriageRule(
        tenantDb(request),
        principalOf(request),
        request.params.triageRuleId,
      );
      request.auditDetails = { exposuresReopened: reopened };
      return reply.code(204).send();
    },
  );
}

/** Triage rules and VEX (docs/triage.md). */
export function triageRuleRoutes(): FastifyPluginAsyncTypebox {
  return async (app) => {
    collectionRoutes(app);
    itemRoutes(app);
    await app.register(vexRoutes());
  };
}
