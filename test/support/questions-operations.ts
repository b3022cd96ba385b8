import { newId } from '../../src/db/ids';
import { withTenant } from '../../src/db/tenant-scope';
import { CRA_CATEGORIES } from '../../src/domains/cra/products/classification';
import type { TestApp } from './test-app';

/** What of the fixture this half reads (questions-fixture.ts builds it and calls this). */
interface QuestionFixture {
  repositories: Record<'web' | 'api' | 'cli' | 'billing', string>;
  exposures: Record<string, string>;
}

/**
 * The operational half of the question fixture (docs/questions.md#proof), written through the
 * owning domains' tables at known instants before the fixture's NOW (2026-12-09T12:00Z):
 * completed scans, alert rules and alerts, SBOM exports, watched TLS endpoints with their
 * observations, certificates, CRA products (Gateway: web and api; Billing portal: billing) and
 * a running CRA clock, watched packages. Every corpus entry about them checks real rows.
 */
export async function writeOperations(t: TestApp, tenantId: string, fixture: QuestionFixture) {
  const at = (iso: string) => new Date(iso);
  const { web, api } = fixture.repositories;
  await withTenant(t.database, tenantId, async (db) => {
    // Completed scans: web this week, api on 1 November; cli never, billing only the failure.
    await db
      .insertInto('scans')
      .values(
        [
          [web, '2026-12-08T06:00:00Z'],
          [api, '2026-11-01T06:00:00Z'],
        ].map(([repositoryId, finished]) => ({
          id: newId(),
          repository_id: repositoryId ?? '',
          state: 'completed' as const,
          trigger: 'push' as const,
          queued_at: at(finished ?? ''),
          started_at: at(finished ?? ''),
          finished_at: at(finished ?? ''),
          counts_by_ecosystem: JSON.stringify({}),
        })),
      )
      .execute();

    const critical = newId();
    await db
      .insertInto('alert_rules')
      .values([
        {
          id: critical,
          name: 'Critical exposures',
          kind: 'exposure_opened',
          enabled: true,
          min_severity: 'critical',
          settings: JSON.stringify({}),
          dedupe_window_minutes: 60,
        },
        {
          id: newId(),
          name: 'Licence drift',
          kind: 'policy_violation',
          enabled: false,
          min_severity: null,
          settings: JSON.stringify({}),
          dedupe_window_minutes: 60,
        },
      ])
      .execute();
    await db
      .insertInto('alerts')
      .values([
        {
          id: newId(),
          rule_id: critical,
          rule_name: 'Critical exposures',
          kind: 'exposure_opened',
          severity: 'critical',
          status: 'open',
          subject: 'CVE-2026-11111',
          title: 'CVE-2026-11111 in acme/web',
          repository_ids: [web],
          payload: JSON.stringify({}),
          raised_at: at('2026-12-08T08:05:00Z'),
        },
        {
          id: newId(),
          rule_id: critical,
          rule_name: 'Critical exposures',
          kind: 'exposure_opened',
          severity: 'critical',
          status: 'acknowledged',
          subject: 'MAL-2026-1234',
          title: 'MAL-2026-1234 in acme/cli',
          repository_ids: [fixture.repositories.cli],
          payload: JSON.stringify({}),
          raised_at: at('2026-12-07T09:35:00Z'),
          acknowledged_at: at('2026-12-07T10:00:00Z'),
        },
      ])
      .execute();

    await db
      .insertInto('sbom_exports')
      .values([
        {
          id: newId(),
          repository_id: web,
          format: 'cyclonedx-1.6',
          state: 'completed',
          component_count: 4,
          created_at: at('2026-12-08T07:00:00Z'),
        },
        {
          id: newId(),
          repository_id: api,
          format: 'spdx-2.3',
          state: 'completed',
          component_count: 3,
          created_at: at('2026-11-02T07:00:00Z'),
        },
      ])
      .execute();

    await writeTls(db, fixture);
    await writeQuantumFindings(db, fixture);
    await writeCra(db, fixture);

    const watched = await db
      .selectFrom('repository_dependencies')
      .select('package_id')
      .distinct()
      .where('name', 'in', ['lodash', 'chalk'])
      .execute();
    await db
      .insertInto('package_watches')
      .values(watched.map((w) => ({ id: newId(), package_id: w.package_id, note: 'fixture' })))
      .execute();
  });
}

type Db = Parameters<Parameters<typeof withTenant>[2]>[0];

/**
 * Four watched endpoints: api (hybrid), legacy (vulnerable), shop (vulnerable, then
 * unreachable: the verdict stays vulnerable), new (never probed). Three certificates: one on
 * legacy expiring 20 December, one in web's code expiring June 2027, one in api's code expired
 * on 1 December.
 */
async function writeTls(db: Db, fixture: QuestionFixture) {
  const at = (iso: string) => new Date(iso);
  const endpoint = (host: string, probed: string | null) => ({
    id: newId(),
    host,
    port: 443,
    interval_hours: 24,
    last_probed_at: probed ? at(probed) : null,
  });
  const apiHost = endpoint('api.acme.test', '2026-12-09T06:00:00Z');
  const legacy = endpoint('legacy.acme.test', '2026-12-09T06:00:00Z');
  const shop = endpoint('shop.acme.test', '2026-12-09T06:00:00Z');
  const fresh = endpoint('new.acme.test', null);
  await db.insertInto('quantum_tls_endpoints').values([apiHost, legacy, shop, fresh]).execute();
  const observation = (
    endpointId: string,
    state: 'hybrid' | 'vulnerable' | 'unreachable',
    observed: string,
  ) => ({
    id: newId(),
    endpoint_id: endpointId,
    observed_at: at(observed),
    state,
    protocol: state === 'unreachable' ? null : 'TLSv1.3',
    group_name: state === 'hybrid' ? 'X25519MLKEM768' : state === 'vulnerable' ? 'x25519' : null,
    verdict_reason: state === 'unreachable' ? null : `fixture: ${state}`,
    problem: state === 'unreachable' ? 'connection refused' : null,
    certificates: '[]',
  });
  await db
    .insertInto('quantum_tls_observations')
    .values([
      observation(apiHost.id, 'vulnerable', '2026-11-01T06:00:00Z'),
      observation(apiHost.id, 'hybrid', '2026-12-09T06:00:00Z'),
      observation(legacy.id, 'vulnerable', '2026-12-09T06:00:00Z'),
      observation(shop.id, 'vulnerable', '2026-12-08T06:00:00Z'),
      observation(shop.id, 'unreachable', '2026-12-09T06:00:00Z'),
    ])
    .execute();
  const certificate = (
    subject: string,
    notAfter: string,
    place: { endpointId: string } | { repositoryId: string },
  ) => ({
    id: newId(),
    provenance: 'endpointId' in place ? ('tls-observation' as const) : ('repository-file' as const),
    repository_id: 'repositoryId' in place ? place.repositoryId : null,
    endpoint_id: 'endpointId' in place ? place.endpointId : null,
    file: 'repositoryId' in place ? 'certs/server.pem' : null,
    line: null,
    subject,
    issuer: 'CN=Acme CA',
    serial_number: subject.length.toString(16),
    not_before: at('2025-01-01T00:00:00Z'),
    not_after: at(notAfter),
    key_algorithm: 'RSA',
    key_size: 2048,
    curve: null,
    signature_algorithm: 'sha256WithRSAEncryption',
    fingerprint_sha256: newId().replaceAll('-', ''),
    classification: 'deprecated-2030' as const,
    self_signed: false,
    is_ca: false,
  });
  await db
    .insertInto('quantum_certificates')
    .values([
      certificate('CN=legacy.acme.test', '2026-12-20T00:00:00Z', { endpointId: legacy.id }),
      certificate('CN=web.acme.test', '2027-06-01T00:00:00Z', {
        repositoryId: fixture.repositories.web,
      }),
      certificate('CN=old.api.acme.test', '2026-12-01T00:00:00Z', {
        repositoryId: fixture.repositories.api,
      }),
    ])
    .execute();
}

/**
 * Quantum findings: weak RSA-1024 and deprecated-2030 RSA-2048 in web, disallowed-2035 ECDSA in
 * api, and a weak finding in cli that is no longer present (never counted).
 */
async function writeQuantumFindings(db: Db, fixture: QuestionFixture) {
  const finding = (
    repositoryId: string,
    algorithm: string,
    keySize: number | null,
    classification: 'weak' | 'deprecated-2030' | 'disallowed-2035',
    line: number,
    present = true,
  ) => {
    const scanId = newId();
    return {
      id: newId(),
      repository_id: repositoryId,
      finding_key: `${algorithm}-${keySize ?? 'x'}-${line}`,
      scan_id: scanId,
      first_seen_scan_id: scanId,
      file: 'src/crypto.ts',
      line,
      language: 'typescript',
      primitive: 'key-generation' as const,
      algorithm,
      curve: algorithm === 'ECDSA' ? 'P-256' : null,
      key_size: keySize,
      classification,
      severity: classification === 'weak' ? 'high' : 'medium',
      recommendation: 'Move to ML-KEM / ML-DSA',
      present,
    };
  };
  const { web, api, cli } = fixture.repositories;
  await db
    .insertInto('quantum_findings')
    .values([
      finding(web, 'RSA', 1024, 'weak', 10),
      finding(web, 'RSA', 2048, 'deprecated-2030', 20),
      finding(api, 'ECDSA', null, 'disallowed-2035', 30),
      finding(cli, 'RSA', 512, 'weak', 40, false),
    ])
    .execute();
}

/** Gateway (class I: web, api) with a running early-warning clock; Billing portal (billing). */
async function writeCra(db: Db, fixture: QuestionFixture) {
  const gateway = newId();
  const portal = newId();
  await db
    .insertInto('cra_products')
    .values([
      {
        id: gateway,
        name: 'Gateway',
        version_line: '2.x',
        manufacturer: 'Acme GmbH',
        classification: 'important_class_i',
        category: Object.keys(CRA_CATEGORIES.important_class_i)[0] ?? null,
      },
      {
        id: portal,
        name: 'Billing portal',
        version_line: '1.x',
        manufacturer: 'Acme GmbH',
        classification: 'default',
        category: null,
      },
    ])
    .execute();
  await db
    .insertInto('cra_product_repositories')
    .values([
      { product_id: gateway, repository_id: fixture.repositories.web },
      { product_id: gateway, repository_id: fixture.repositories.api },
      { product_id: portal, repository_id: fixture.repositories.billing },
    ])
    .execute();
  const exposure = await db
    .selectFrom('vulnerability_exposures')
    .select(['id', 'vulnerability_id'])
    .where('id', '=', fixture.exposures['web/@acme/ui'] ?? '')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('cra_clocks')
    .values({
      id: newId(),
      product_id: gateway,
      trigger: 'vulnerability',
      vulnerability_id: exposure.vulnerability_id,
      exposure_id: exposure.id,
      kind: 'early_warning',
      started_at: new Date('2026-12-08T10:00:00Z'),
      due_at: new Date('2026-12-10T10:00:00Z'),
    })
    .execute();
}
