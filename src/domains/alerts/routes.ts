import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { notFound } from '../../core/problem';
import { pageOf, parseEnum, parseTimeWindow } from '../../http/query';
import type { RouteApp } from '../../http/route-app';
import { NoContent, UuidParam, withErrors } from '../../http/schemas';
import { principalOf, tenantDb } from '../../http/scope';
import { SEVERITY_RATINGS } from '../../intel/osv/types';
import { ALERT_KIND_NAMES } from './kinds';
import { presentAlert, presentRule } from './present';
import {
  AcknowledgeAlertRequest,
  Alert,
  AlertListQuery,
  AlertPage,
  AlertRule,
  AlertRuleList,
  CreateAlertRuleRequest,
  UpdateAlertRuleRequest,
} from './schemas';
import { acknowledge, changeRule, createRule } from './service';
import { deleteRule, findAlert, findRule, listAlerts, listRules } from './store';
import { ALERT_STATUSES } from './tables';

// One tag for the domain: rules and the alerts they raise.
const RULES = 'Alerts';
const ALERTS = 'Alerts';

function ruleCollectionRoutes(app: RouteApp): void {
  app.get(
    '/api/v1/alert-rules',
    {
      schema: {
        tags: [RULES],
        summary: "The tenant's alert rules (newest first)",
        response: withErrors({ 200: AlertRuleList }),
      },
      config: { role: 'viewer' },
    },
    async (request) => ({ items: (await listRules(tenantDb(request))).map(presentRule) }),
  );

  app.post(
    '/api/v1/alert-rules',
    {
      schema: {
        tags: [RULES],
        summary: 'Create an alert rule: a kind, filters, a dedupe window and channels',
        body: CreateAlertRuleRequest,
        response: withErrors({ 201: AlertRule }, [413, 415]),
      },
      config: {
        role: 'admin',
        feature: 'alert_rules',
        audit: { action: 'alert_rule.create', resourceType: 'alert_rule' },
      },
    },
    async (request, reply) => {
      const row = await createRule(tenantDb(request), principalOf(request), request.body);
      request.auditResourceId = row.id;
      return reply.code(201).send(presentRule(row));
    },
  );
}

function ruleItemRoutes(app: RouteApp): void {
  app.get(
    '/api/v1/alert-rules/:alertRuleId',
    {
      schema: {
        tags: [RULES],
        summary: 'One alert rule',
        params: UuidParam('alertRuleId'),
        response: withErrors({ 200: AlertRule }, [404]),
      },
      config: { role: 'viewer' },
    },
    async (request) => {
      const row = await findRule(tenantDb(request), request.params.alertRuleId);
      if (!row) throw notFound('The alert rule');
      return presentRule(row);
    },
  );

  app.patch(
    '/api/v1/alert-rules/:alertRuleId',
    {
      schema: {
        tags: [RULES],
        summary: 'Change an alert rule (fields given replace the stored ones)',
        params: UuidParam('alertRuleId'),
        body: UpdateAlertRuleRequest,
        response: withErrors({ 200: AlertRule }, [404, 413, 415]),
      },
      config: {
        role: 'admin',
        feature: 'alert_rules',
        audit: { action: 'alert_rule.update', resourceType: 'alert_rule' },
      },
    },
    async (request) =>
      presentRule(await changeRule(tenantDb(request), request.params.alertRuleId, request.body)),
  );

  app.delete(
    '/api/v1/alert-rules/:alertRuleId',
    {
      schema: {
        tags: [RULES],
        summary: 'Delete an alert rule (its alerts stay)',
        params: UuidParam('alertRuleId'),
        response: withErrors({ 204: NoContent }, [404]),
      },
      config: { role: 'admin', audit: { action: 'alert_rule.delete', resourceType: 'alert_rule' } },
    },
    async (request, reply) => {
      if (!(await deleteRule(tenantDb(request), request.params.alertRuleId))) {
        throw notFound('The alert rule');
      }
      return reply.code(204).send();
    },
  );
}

function alertRoutesGroup(app: RouteApp): void {
  app.get(
    '/api/v1/alerts',
    {
      schema: {
        tags: [ALERTS],
        summary: "The tenant's alerts (newest first)",
        querystring: AlertListQuery,
        response: withErrors({ 200: AlertPage }),
      },
      config: { role: 'viewer' },
    },
    async (request) => {
      const query = request.query;
      const page = pageOf(query);
      const window = parseTimeWindow(query);
      const { rows, total } = await listAlerts(
        tenantDb(request),
        {
          kind: parseEnum('kind', query.kind, ALERT_KIND_NAMES),
          severity: parseEnum('severity', query.severity, SEVERITY_RATINGS),
          status: parseEnum('status', query.status, ALERT_STATUSES),
          repositoryId: query.repositoryId,
          from: window.from,
          to: window.to,
        },
        page,
      );
      return { items: rows.map(presentAlert), totalEstimate: total, ...page };
    },
  );

  app.get(
    '/api/v1/alerts/:alertId',
    {
      schema: {
        tags: [ALERTS],
        summary: 'One alert',
        params: UuidParam('alertId'),
        response: withErrors({ 200: Alert }, [404]),
      },
      config: { role: 'viewer' },
    },
    async (request) => {
      const row = await findAlert(tenantDb(request), request.params.alertId);
      if (!row) throw notFound('The alert');
      return presentAlert(row);
    },
  );

  app.patch(
    '/api/v1/alerts/:alertId',
    {
      schema: {
        tags: [ALERTS],
        summary: 'Acknowledge an alert (open → acknowledged; a second acknowledgement is a 422)',
        params: UuidParam('alertId'),
        body: AcknowledgeAlertRequest,
        response: withErrors({ 200: Alert }, [404, 413, 415, 422]),
      },
      // The body is optional: no body is an empty one.
      preValidation: async (request) => {
        if (request.body === undefined || request.body === null) request.body = {};
      },
      config: {
        role: 'member',
        audit: { action: 'alert.acknowledge', resourceType: 'alert' },
      },
    },
    async (request) => {
      const details: Record<string, unknown> = {};
      request.auditDetails = details;
      const row = await acknowledge(
        tenantDb(request),
        principalOf(request),
        request.params.alertId,
        request.body,
        details,
      );
      return presentAlert(row);
    },
  );
}

/** Alert rules and alerts (docs/alerts.md). */
export function alertRoutes(): FastifyPluginAsyncTypebox {
  return async (app) => {
    ruleCollectionRoutes(app);
    ruleItemRoutes(app);
    alertRoutesGroup(app);
  };
}
