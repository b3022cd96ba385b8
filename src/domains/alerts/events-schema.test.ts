import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPolicy,
  createTestApp,
  importJsonl,
  insertRepository,
  npmRange,
  osvRecord,
  packageMetadata,
  scanWith,
  type TestApp,
  type TestTenant,
} from '../../../test/support/scenarios';
import { emitTlsObservationEvents } from '../../../test/support/tls-endpoints';
import {
  receiverConfig,
  startWebhookReceiver,
  verifyDelivery,
  type WebhookReceiver,
} from '../../../test/support/webhook-receiver';
import { withTenant } from '../../db/tenant-scope';
import type { PackageMetadata, RegistryClient } from '../../ecosystems/registry-types';
import { enrichPackages } from '../../intel/package-catalogue/enrichment';
import { eventsOfRow } from '../../jobs/outbox';
import { snapshotRepositoryDrift } from '../drift/service';
import type { EventName } from '../events';
import { emitCatalogueEvents } from '../packages/catalogue-events';
import { failScan } from '../scans/store';

/** The JSON Schemas of docs/events.md, by the event named in the heading above each. */
function documentedSchemas(): Map<string, object> {
  const text = readFileSync(new URL('../../../docs/events.md', import.meta.url), 'utf8');
  const schemas = new Map<string, object>();
  for (const match of text.matchAll(/^## `([a-z_.]+)`[^\n]*\n[\s\S]*?```json\n([\s\S]*?)\n```/gm)) {
    schemas.set(match[1] as string, JSON.parse(match[2] as string));
  }
  return schemas;
}

const addFormats =
  (addFormatsModule as unknown as { default: typeof addFormatsModule }).default ?? addFormatsModule;

/** Every event the service can emit: each must be documented and seen valid in the run below. */
const EVENTS: EventName[] = [
  'dependencies.changed',
  'exposures.refreshed',
  'exposures.status_changed',
  'exposures.opened',
  'exposures.reopened',
  'exposures.malicious_found',
  'vulnerability.severity_raised',
  'package.deprecated',
  'package.versions_yanked',
  'package.health_changed',
  'package.maintainers_changed',
  'package.released',
  'scan.failed',
  'policy_violation.opened',
  'policy_violations.changed',
  'drift.updated',
  'dependency_drift.changed',
  'repository.deleted',
  'integration.disabled',
  'quantum.tls_verdict_changed',
  'quantum.tls_certificate_expiring',
];

/** `evt-pkg`'s registry answer: a version is yanked when the notes say so. */
const metadata = (versions: string[], fields: Partial<PackageMetadata> = {}) =>
  packageMetadata('evt-pkg', versions, {
    spacingDays: 20,
    yanked: versions.filter((v) => fields.notes?.includes(`yanked ${v}`)),
    latestStable: versions.at(-1) ?? null,
    ...fields,
  });

describe('docs/events.md', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  let tenant: TestTenant;

  /** Every outbox row the service writes, copied as it is inserted (the jobs then consume it). */
  const captured = async () => {
    const { rows } = await sql<{ job_name: string; data: unknown }>`
      SELECT job_name, data FROM test_captured_events`.execute(t.database.system);
    // A batch row (emitEvents) holds several events: each is checked as the relay sends it.
    return rows.flatMap((row) => eventsOfRow(row.job_name, row.data));
  };

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    t = await createTestApp(receiverConfig(receiver));
    await sql`
      CREATE TABLE test_captured_events (job_name text NOT NULL, data jsonb NOT NULL);
      CREATE FUNCTION test_capture_event() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO test_captured_events VALUES (NEW.job_name, NEW.data);
        RETURN NEW;
      END $$;
      CREATE TRIGGER test_capture_event AFTER INSERT ON job_outbox
        FOR EACH ROW EXECUTE FUNCTION test_capture_event();
      GRANT INSERT ON test_captured_events TO driftwatch_app;`.execute(t.database.system);
    tenant = await t.createTenant('enterprise', 'Events');
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  it('documents every event with a schema that the events the service emits satisfy', async () => {
    // A watched TLS endpoint seen hybrid, then classical, with a one-day certificate (its jobs
    // run before anything else is queued).
    await emitTlsObservationEvents(t, tenant);
    // Alerts for every kind, delivered to a webhook that answers 410 once it has the first.
    const hook = await t.as(tenant.token, {
      method: 'POST',
      url: '/api/v1/integrations/webhooks',
      payload: { name: 'events', url: receiver.url },
    });
    const { integrationId, secret } = hook.json() as { integrationId: string; secret: string };
    for (const kind of [
      'exposure_opened',
      'malicious_package',
      'scan_failed',
      'package_deprecated',
      'policy_violation_opened',
    ]) {
      const res = await t.as(tenant.token, {
        method: 'POST',
        url: '/api/v1/alert-rules',
        payload: { name: kind, kind, channels: [integrationId] },
      });
      expect(res.statusCode, res.body).toBe(201);
    }
    await t.runJobs();

    const repositoryId = await insertRepository(t, tenant.tenantId, 'events');
    await importJsonl(t, [
      osvRecord({
        id: 'GHSA-evts-0001',
        databaseSeverity: 'LOW',
        affected: [npmRange('evt-pkg', '0', '9.0.0')],
      }),
    ]);
    await importJsonl(t, [
      osvRecord({
        id: 'MAL-2026-99001',
        affected: [{ ecosystem: 'npm', name: 'evt-evil', versions: ['6.6.6'] }],
      }),
    ]);
    const dependency = [
      { name: 'evt-pkg', version: '1.0.0' },
      { name: 'evt-evil', version: '6.6.6' },
    ];
    await scanWith(t, tenant.tenantId, repositoryId, dependency, 'all');
    await scanWith(t, tenant.tenantId, repositoryId, [], 'all');
    await scanWith(t, tenant.tenantId, repositoryId, dependency, 'all');
    await importJsonl(t, [
      osvRecord({
        id: 'GHSA-evts-0001',
        modified: '2025-05-01T00:00:00Z',
        databaseSeverity: 'CRITICAL',
        affected: [npmRange('evt-pkg', '0', '9.0.0')],
      }),
    ]);
    await createPolicy(t, tenant.token, {
      name: 'any vulnerability',
      condition: 'vulnerabilities.maxSeverityLevel >= 1',
      severity: 'high',
      action: 'block',
    });
    await t.runJobs();
    // A person's triage of an exposure.
    const exposure = (
      await t.as(tenant.token, { method: 'GET', url: '/api/v1/vulnerability-exposures' })
    ).json().items[0] as { exposureId: string };
    const triaged = await t.as(tenant.token, {
      method: 'PATCH',
      url: `/api/v1/vulnerability-exposures/${exposure.exposureId}`,
      payload: { status: 'investigating' },
    });
    expect(triaged.statusCode, triaged.body).toBe(200);
    const queued = await t.as(tenant.token, {
      method: 'POST',
      url: `/api/v1/repositories/${repositoryId}/scan`,
    });
    await withTenant(t.database, tenant.tenantId, (db) =>
      failScan(db, queued.json().scanId, 'refused'),
    );

    const packageId = (
      await t.database.system
        .selectFrom('packages')
        .select('id')
        .where('name', '=', 'evt-pkg')
        .executeTakeFirstOrThrow()
    ).id;
    let next = metadata(['1.0.0']);
    const client: RegistryClient = {
      ecosystem: 'npm',
      status: { state: 'enabled', baseUrl: 'http://127.0.0.1:9' },
      fetchPackage: async () => next,
    };
    const fetch = (answer: PackageMetadata) => {
      next = answer;
      return enrichPackages(
        {
          db: t.database.system,
          clients: { npm: client },
          settings: { staleAfterHours: 24, refreshBatchSize: 10, fetchConcurrency: 1 },
          onChange: emitCatalogueEvents,
        },
        [{ id: packageId, ecosystem: 'npm', name: 'evt-pkg' }],
      );
    };
    await fetch(metadata(['1.0.0']));
    await fetch(
      metadata(['1.0.0', '1.1.0'], {
        deprecated: 'unmaintained',
        maintainers: ['bob'],
        notes: ['yanked 1.0.0'],
        latestStable: '1.1.0',
      }),
    );
    // The metadata the scan's drift snapshot waited for arrived: the snapshot is recomputed.
    await withTenant(t.database, tenant.tenantId, async (db) => {
      const { dependency_scan_id } = await db
        .selectFrom('repositories')
        .select('dependency_scan_id')
        .where('id', '=', repositoryId)
        .executeTakeFirstOrThrow();
      const settings = t.config.packageIntel;
      const scanId = dependency_scan_id ?? '';
      expect(
        await snapshotRepositoryDrift(db, tenant.tenantId, repositoryId, scanId, settings),
      ).toBe(true);
    });
    // A repository deleted (its rollups refresh on the event).
    const doomed = await insertRepository(t, tenant.tenantId, 'events-deleted');
    const deleted = await t.as(tenant.token, {
      method: 'DELETE',
      url: `/api/v1/repositories/${doomed}`,
    });
    expect(deleted.statusCode, deleted.body).toBe(204);
    receiver.answers.push(200, 410);
    await t.runJobs();
    for (let i = 0; i < 20 && receiver.received.length < 2; i++) await t.runJobs();

    const ajv = addFormats(new Ajv({ allErrors: true, strict: true }));
    const schemas = documentedSchemas();
    for (const event of [...EVENTS, 'alert.raised']) {
      expect(schemas.has(event), `docs/events.md documents ${event}`).toBe(true);
    }
    const seen = new Set<string>();
    for (const { event, data } of await captured()) {
      const schema = schemas.get(event);
      expect(schema, `docs/events.md has a schema for ${event}`).toBeDefined();
      const validate = ajv.compile(schema as object);
      expect(
        validate(data),
        `${event}: ${ajv.errorsText(validate.errors)} in ${JSON.stringify(data)}`,
      ).toBe(true);
      seen.add(event);
    }
    expect([...seen].sort()).toEqual([...EVENTS].sort());

    // The webhook event: what a channel receives is the documented alert.
    const validateAlert = ajv.compile(schemas.get('alert.raised') as object);
    expect(receiver.received.length).toBeGreaterThan(0);
    for (const request of receiver.received) {
      const envelope = verifyDelivery(secret, request as never);
      expect(envelope.type).toBe('alert.raised');
      expect(validateAlert(envelope.data), ajv.errorsText(validateAlert.errors)).toBe(true);
    }
  });
});
