import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { notFound, unauthorized } from '../../core/problem';
import type { Database } from '../../db/connection';
import type { OpenApiTag } from '../../http/openapi';
import { ItemsList, NoContent, withErrors } from '../../http/schemas';
import type { OperatorCheck } from '../../security/operator-token';
import type { RouteDeps as DomainRouteDeps } from '../route-deps';
import { renderAtomFeed } from './feed';
import {
  evaluateComponents,
  listComponents,
  overallState,
  READ_STALE_MS,
  setOverride,
} from './measurement/components';
import type { ResponseWindow } from './measurement/response-window';
import { renderStatusPage } from './page';
import {
  ChangelogEntry,
  Component,
  ComponentParam,
  CreateChangelogRequest,
  Created,
  CreateIncidentRequest,
  Incident,
  IncidentParam,
  IncidentUpdateRequest,
  OverrideRequest,
  PublicStatus,
} from './schemas';
import {
  insertChangelogEntry,
  insertIncident,
  insertIncidentUpdate,
  listChangelog,
  listIncidents,
} from './store';
import { type Notifier, subscriberNotifier } from './subscriptions/notify';
import { subscriptionRoutes } from './subscriptions/routes';
import type { SubscriptionContext } from './subscriptions/service';
import type { ComponentState } from './tables';

/** How far back the incident history reaches (the status page shows 90 days). */
export const HISTORY_DAYS = 90;
export const CHANGELOG_LIMIT = 100;

const DESCRIPTIONS: Record<ComponentState, string> = {
  operational: 'All systems operational',
  maintenance: 'Maintenance in progress',
  degraded: 'Some systems are degraded',
  outage: 'Some systems are down',
  unknown: 'Not measured yet',
};

export interface StatusDeps {
  database: Database;
  responseWindow: ResponseWindow;
  /** Null: no operator token configured, so no operator routes. */
  operatorCheck: OperatorCheck | null;
  /** Mail settings and the secret box of subscriptions (docs/status.md#subscriptions). */
  subscriptions: SubscriptionContext;
}

type RouteDeps = StatusDeps & { notify: Notifier };

const PUBLIC = { auth: false } as const;
const TAGS: OpenApiTag[] = ['Status'];

/**
 * The current components as the status evaluator stored them (jobs.ts); measured here only when
 * no evaluator has for a while (READ_STALE_MS).
 */
export async function currentComponents(deps: StatusDeps & { notify?: Notifier }) {
  await evaluateComponents(deps.database, deps.responseWindow, {
    notify: deps.notify ?? null,
    maxAgeMs: READ_STALE_MS,
  });
  return listComponents(deps.database);
}

/** The status routes' view of the shared route dependencies, with the subscriber notifier. */
type StatusRouteDeps = Pick<
  DomainRouteDeps,
  'config' | 'database' | 'secretBox' | 'responseWindow' | 'operatorCheck'
>;

function statusRouteDeps(routeDeps: StatusRouteDeps): RouteDeps {
  const subscriptions = { config: routeDeps.config, secretBox: routeDeps.secretBox };
  return {
    database: routeDeps.database,
    responseWindow: routeDeps.responseWindow,
    operatorCheck: routeDeps.operatorCheck,
    subscriptions,
    notify: subscriberNotifier(subscriptions),
  };
}

export function statusRoutes(routeDeps: StatusRouteDeps): FastifyPluginAsyncTypebox {
  const deps = statusRouteDeps(routeDeps);
  return async (app) => {
    app.get(
      '/api/v1/status/public',
      {
        schema: {
          tags: TAGS,
          summary: 'The overall state and each component’s state',
          response: withErrors({ 200: PublicStatus }, [], { authenticated: false }),
        },
        config: PUBLIC,
      },
      async () => {
        const components = await currentComponents(deps);
        const open = (await listIncidents(deps.database.system, 0)).filter(
          (incident) => incident.resolvedAtUtc === null,
        );
        const status = overallState(components, open);
        return {
          status,
          description: DESCRIPTIONS[status],
          openIncidents: open.length,
          updatedAtUtc: latest(components.map((component) => component.evaluatedAtUtc)),
          components: components.map(({ componentId, name, state }) => ({
            componentId,
            name,
            state,
          })),
        };
      },
    );

    app.get(
      '/status/components',
      {
        schema: {
          tags: TAGS,
          operationId: 'listStatusComponents',
          summary: 'Each component with its state, measurement and any operator override',
          response: withErrors({ 200: ItemsList(Component) }, [], { authenticated: false }),
        },
        config: PUBLIC,
      },
      async () => ({ items: await currentComponents(deps) }),
    );

    app.get(
      '/status/incidents',
      {
        schema: {
          tags: TAGS,
          operationId: 'listStatusIncidents',
          summary: `Open incidents and those of the last ${HISTORY_DAYS} days, with their updates`,
          response: withErrors({ 200: ItemsList(Incident) }, [], { authenticated: false }),
        },
        config: PUBLIC,
      },
      async () => ({ items: await listIncidents(deps.database.system, HISTORY_DAYS) }),
    );

    app.get(
      '/status/changelog',
      {
        schema: {
          tags: TAGS,
          operationId: 'listStatusChangelog',
          summary: 'Releases, changes and deprecations, newest first',
          response: withErrors({ 200: ItemsList(ChangelogEntry) }, [], { authenticated: false }),
        },
        config: PUBLIC,
      },
      async () => ({ items: await listChangelog(deps.database.system, CHANGELOG_LIMIT) }),
    );

    await app.register(feedAndPageRoutes(deps));
    await app.register(subscriptionRoutes(deps));

    if (deps.operatorCheck)
      await app.register(operatorRoutes({ ...deps, operatorCheck: deps.operatorCheck }));
  };
}

/** The Atom feed and the HTML page: the same incidents and changelog, for readers and people. */
function feedAndPageRoutes(deps: RouteDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/status/feed.atom',
      {
        schema: {
          tags: TAGS,
          operationId: 'getStatusFeed',
          summary: 'Incidents and changelog entries as an Atom 1.0 feed (RFC 4287)',
          response: withErrors(
            {
              200: Type.String({
                description: 'An Atom 1.0 feed (application/atom+xml)',
                contentMediaType: 'application/atom+xml',
              }),
            },
            [],
            { authenticated: false },
          ),
        },
        config: PUBLIC,
      },
      async (request, reply) => {
        const system = deps.database.system;
        const [incidents, changelog] = await Promise.all([
          listIncidents(system, HISTORY_DAYS),
          listChangelog(system, CHANGELOG_LIMIT),
        ]);
        const base = `${request.protocol}://${request.host}`;
        reply.type('application/atom+xml; charset=utf-8');
        return renderAtomFeed(incidents, changelog, base, new Date());
      },
    );

    // The page for people; HTML, so not an operation of the API document.
    app.get('/status', { schema: { hide: true }, config: PUBLIC }, async (_request, reply) => {
      const components = await currentComponents(deps);
      const system = deps.database.system;
      const [incidents, changelog] = await Promise.all([
        listIncidents(system, HISTORY_DAYS),
        listChangelog(system, CHANGELOG_LIMIT),
      ]);
      const overall = overallState(
        components,
        incidents.filter((incident) => incident.resolvedAtUtc === null),
      );
      reply.type('text/html; charset=utf-8');
      return renderStatusPage({
        overall,
        description: DESCRIPTIONS[overall],
        components,
        incidents,
        changelog,
        days: HISTORY_DAYS,
        now: new Date(),
        subscribe: true,
      });
    });
  };
}

const latest = (times: string[]) =>
  times.reduce((max, time) => (time > max ? time : max), new Date(0).toISOString());

/** Incidents, changelog and overrides: the operator token only (docs/status.md#operators). */
function operatorRoutes(
  deps: RouteDeps & { operatorCheck: OperatorCheck },
): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.addHook('onRequest', async (request) => {
      if (!deps.operatorCheck(request.headers.authorization)) {
        throw unauthorized('The operator token is required.');
      }
    });
    const system = deps.database.system;
    const hidden = { hide: true, tags: TAGS } as const;

    app.post(
      '/api/v1/status/incidents',
      {
        schema: { ...hidden, body: CreateIncidentRequest, response: { 201: Created } },
        config: PUBLIC,
      },
      async (request, reply) => {
        const { body } = request;
        const id = await insertIncident(
          system,
          {
            title: body.title,
            impact: body.impact,
            status: body.status ?? 'investigating',
            components: body.components ?? [],
            body: body.body,
          },
          deps.notify,
        );
        return reply.code(201).send({ id });
      },
    );

    app.post(
      '/api/v1/status/incidents/:incidentId/updates',
      {
        schema: {
          ...hidden,
          params: IncidentParam,
          body: IncidentUpdateRequest,
          response: { 201: Created },
        },
        config: PUBLIC,
      },
      async (request, reply) => {
        const found = await insertIncidentUpdate(
          system,
          request.params.incidentId,
          request.body,
          deps.notify,
        );
        if (!found) throw notFound('The incident');
        return reply.code(201).send({ id: request.params.incidentId });
      },
    );

    app.post(
      '/api/v1/status/changelog',
      {
        schema: { ...hidden, body: CreateChangelogRequest, response: { 201: Created } },
        config: PUBLIC,
      },
      async (request, reply) => {
        const { body } = request;
        const id = await insertChangelogEntry(system, {
          kind: body.kind,
          title: body.title,
          body: body.body ?? '',
          version: body.version ?? null,
          publishedAt: body.publishedAtUtc ? new Date(body.publishedAtUtc) : null,
        });
        return reply.code(201).send({ id });
      },
    );

    app.put(
      '/api/v1/status/components/:componentId/override',
      {
        schema: {
          ...hidden,
          params: ComponentParam,
          body: OverrideRequest,
          response: { 204: NoContent },
        },
        config: PUBLIC,
      },
      async (request, reply) => {
        const { state, reason, untilUtc } = request.body;
        await setOverride(
          deps.database,
          deps.responseWindow,
          request.params.componentId,
          { state, reason, until: untilUtc ? new Date(untilUtc) : null },
          deps.notify,
        );
        return reply.code(204).send();
      },
    );

    app.delete(
      '/api/v1/status/components/:componentId/override',
      {
        schema: { ...hidden, params: ComponentParam, response: { 204: NoContent } },
        config: PUBLIC,
      },
      async (request, reply) => {
        await setOverride(
          deps.database,
          deps.responseWindow,
          request.params.componentId,
          null,
          deps.notify,
        );
        return reply.code(204).send();
      },
    );
  };
}
