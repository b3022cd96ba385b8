import { withTenant } from '../../src/db/tenant-scope';
import { importJsonl, insertRepository, scanWith } from './exposures';
import { npmRange, osvRecord } from './osv-records';
import { writeOperations } from './questions-operations';
import type { TestApp, TestTenant } from './test-app';

/**
 * The question corpus's fixture (docs/questions.md#proof): a tenant with a known history, answered
 * at a fixed instant, NOW (a Wednesday). Dates are absolute so that "since Monday" or "last week"
 * have one right answer. Tenant B holds the same package names in a repository also named
 * `web`: nothing of it may appear in tenant A's answers.
 */
export const NOW = new Date('2026-12-09T12:00:00Z');

const range = (ecosystem: string, name: string, fixed: string) => ({
  ecosystem,
  name,
  ranges: [
    { type: 'ECOSYSTEM', events: [{ introduced: '0' }, { fixed }] as Record<string, string>[] },
  ],
});

export const ADVISORIES = [
  osvRecord({
    id: 'GHSA-9wx4-h78v-vm56',
    aliases: ['CVE-2024-35195'],
    summary:
      'Requests Session object does not verify requests after making first request with verify=False',
    databaseSeverity: 'MODERATE',
    affected: [range('PyPI', 'requests', '2.32.0')],
  }),
  osvRecord({
    id: 'GHSA-35jh-r3h4-6jhm',
    aliases: ['CVE-2021-23337'],
    summary: 'Command Injection in lodash',
    databaseSeverity: 'HIGH',
    affected: [npmRange('lodash', '0', '4.17.21')],
  }),
  osvRecord({
    id: 'GHSA-rv95-896h-c2vc',
    aliases: ['CVE-2024-29041'],
    summary: 'Express.js Open Redirect in malformed URLs',
    databaseSeverity: 'MODERATE',
    affected: [npmRange('express', '0', '4.19.2')],
  }),
  osvRecord({
    id: 'GHSA-crit-0001-aaaa',
    aliases: ['CVE-2026-11111'],
    summary: 'Remote code execution in @acme/ui',
    databaseSeverity: 'CRITICAL',
    affected: [npmRange('@acme/ui', '0', '1.3.0')],
  }),
  osvRecord({
    id: 'MAL-2026-1234',
    summary: 'Malicious code in evil-pkg (npm)',
    affected: [npmRange('evil-pkg', '0')],
  }),
  osvRecord({
    id: 'RUSTSEC-2020-0071',
    aliases: ['CVE-2020-26235'],
    summary: 'Potential segfault in the time crate',
    databaseSeverity: 'MODERATE',
    affected: [range('crates.io', 'time', '0.2.23')],
  }),
  osvRecord({
    id: 'GO-2024-2611',
    aliases: ['CVE-2024-24786'],
    summary: 'Infinite loop in JSON unmarshaling in google.golang.org/protobuf',
    databaseSeverity: 'MODERATE',
    affected: [range('Go', 'google.golang.org/protobuf', '1.33.0')],
  }),
  osvRecord({
    id: 'PYSEC-2023-74',
    aliases: ['CVE-2023-32681', 'GHSA-j8r2-6x86-q33q'],
    summary: 'Unintended leak of Proxy-Authorization header in requests',
    databaseSeverity: 'MODERATE',
    affected: [range('PyPI', 'requests', '2.31.0')],
  }),
];

export interface QuestionFixture {
  repositories: Record<'web' | 'api' | 'cli' | 'billing', string>;
  otherWeb: string;
  /** exposure ids by `<repository>/<package>` */
  exposures: Record<string, string>;
}

async function exposureIds(t: TestApp, tenantId: string): Promise<Record<string, string>> {
  const rows = await withTenant(t.database, tenantId, (db) =>
    db
      .selectFrom('vulnerability_exposures as e')
      .innerJoin('repositories as r', 'r.id', 'e.repository_id')
      .select(['e.id', 'r.name', 'e.package_name'])
      .execute(),
  );
  return Object.fromEntries(rows.map((r) => [`${r.name}/${r.package_name}`, r.id]));
}

export async function buildQuestionFixture(
  t: TestApp,
  a: TestTenant,
  b: TestTenant,
): Promise<QuestionFixture> {
  await importJsonl(t, ADVISORIES);
  const repositories = {
    web: await insertRepository(t, a.tenantId, 'web', { business_criticality: 'critical' }),
    api: await insertRepository(t, a.tenantId, 'api', { business_criticality: 'high' }),
    cli: await insertRepository(t, a.tenantId, 'cli', { business_criticality: 'low' }),
    billing: await insertRepository(t, a.tenantId, 'billing', { business_criticality: 'critical' }),
  };
  await scanWith(t, a.tenantId, repositories.web, [
    { name: 'lodash', version: '4.17.20' },
    { name: 'express', version: '4.17.1' },
    { name: '@acme/ui', version: '1.2.3' },
    { name: 'requests', version: '0.3.0' },
  ]);
  await scanWith(t, a.tenantId, repositories.api, [
    { name: 'lodash', version: '4.17.20' },
    { name: 'requests', version: '2.31.0', ecosystem: 'PyPI' },
    { name: 'google.golang.org/protobuf', version: 'v1.32.0', ecosystem: 'Go' },
  ]);
  await scanWith(t, a.tenantId, repositories.cli, [
    { name: 'evil-pkg', version: '1.0.0' },
    { name: 'time', version: '0.2.22', ecosystem: 'Cargo' },
    { name: 'chalk', version: '5.3.0' },
  ]);
  await scanWith(t, a.tenantId, repositories.billing, [{ name: 'express', version: '4.21.0' }]);

  const otherWeb = await insertRepository(t, b.tenantId, 'web');
  await scanWith(t, b.tenantId, otherWeb, [
    { name: 'lodash', version: '4.17.20' },
    { name: 'express', version: '4.17.1' },
    { name: 'evil-pkg', version: '1.0.0' },
  ]);

  const exposures = await exposureIds(t, a.tenantId);
  await writeHistory(t, a.tenantId, exposures);
  return { repositories, otherWeb, exposures };
}

/** Known dates: what was first seen when, one exposure fixed last week, reachability. */
async function writeHistory(t: TestApp, tenantId: string, exposures: Record<string, string>) {
  const at = (iso: string) => new Date(iso);
  const firstSeen: Record<string, string> = {
    'web/lodash': '2026-10-05T10:00:00Z',
    'api/lodash': '2026-10-05T11:00:00Z',
    'web/express': '2026-11-20T09:00:00Z',
    'web/@acme/ui': '2026-12-08T08:00:00Z',
    'api/requests': '2026-12-01T08:00:00Z',
    'api/google.golang.org/protobuf': '2026-08-15T08:00:00Z',
    'cli/evil-pkg': '2026-12-07T09:30:00Z',
    'cli/time': '2026-07-01T00:00:00Z',
  };
  await withTenant(t.database, tenantId, async (db) => {
    for (const [key, iso] of Object.entries(firstSeen)) {
      const id = exposures[key];
      if (!id) throw new Error(`fixture: no exposure ${key}`);
      await db
        .updateTable('vulnerability_exposures')
        .set({ first_seen_at: at(iso) })
        .where('id', '=', id)
        .execute();
    }
    // Fixed last week (Mon 30 Nov – Sun 6 Dec): the Go finding.
    await db
      .updateTable('vulnerability_exposures')
      .set({
        status: 'fixed',
        fixed_at: at('2026-12-02T15:00:00Z'),
        fixed_reason: 'dependency_removed',
      })
      .where('id', '=', exposures['api/google.golang.org/protobuf'] ?? '')
      .execute();
    // Dependencies: there since June, except the three that came with this autumn's exposures.
    await db
      .updateTable('dependency_first_seen')
      .set({ first_seen_at: at('2026-06-01T00:00:00Z') })
      .execute();
    const newDependencies: Record<string, string> = {
      'web/@acme/ui': '2026-12-08T08:00:00Z',
      'cli/evil-pkg': '2026-12-07T09:30:00Z',
      'api/requests': '2026-12-01T08:00:00Z',
    };
    for (const [key, iso] of Object.entries(newDependencies)) {
      const [repository, name] = [key.slice(0, key.indexOf('/')), key.slice(key.indexOf('/') + 1)];
      await db
        .updateTable('dependency_first_seen as f')
        .set({ first_seen_at: at(iso) })
        .where(({ exists, selectFrom }) =>
          exists(
            selectFrom('repository_dependencies as d')
              .innerJoin('repositories as r', 'r.id', 'd.repository_id')
              .select('d.package_id')
              .whereRef('d.package_id', '=', 'f.package_id')
              .whereRef('d.repository_id', '=', 'f.repository_id')
              .where('r.name', '=', repository)
              .where('d.name', '=', name),
          ),
        )
        .execute();
    }
    await db
      .updateTable('vulnerability_exposures')
      .set({ reachability: 'imported' })
      .where('id', 'in', [exposures['web/lodash'] ?? '', exposures['web/@acme/ui'] ?? ''])
      .execute();
    await db
      .updateTable('vulnerability_exposures')
      .set({ reachability: 'not_imported' })
      .where('id', 'in', [exposures['api/lodash'] ?? '', exposures['web/express'] ?? ''])
      .execute();
    await db
      .updateTable('vulnerability_exposures')
      .set({
        status: 'accepted_risk',
        accepted_until: at('2027-03-01T00:00:00Z'),
        justification: 'inline_mitigations_already_exist',
        status_reason: 'fixture',
      })
      .where('id', '=', exposures['cli/time'] ?? '')
      .execute();
  });
}

/** Drift snapshots, a licence policy and a blocking policy with violations, an exception, a failed scan. */
export async function writeActivity(t: TestApp, tenantId: string, fixture: QuestionFixture) {
  const at = (iso: string) => new Date(iso);
  await withTenant(t.database, tenantId, async (db) => {
    const repos = await db
      .selectFrom('repositories')
      .select(['id', 'name', 'dependency_scan_id'])
      .execute();
    const deps = await db
      .selectFrom('repository_dependencies')
      .select(['repository_id', 'scan_id', 'package_id', 'name', 'version', 'ecosystem', 'purl'])
      .execute();
    const libyears: Record<string, [number, number]> = {
      lodash: [3.5, 0],
      express: [2.25, 1],
      '@acme/ui': [0.5, 0],
      requests: [0.2, 1],
      chalk: [0, 0],
    };
    for (const r of repos) {
      const mine = deps.filter((d) => d.repository_id === r.id);
      const total = mine.reduce((s, d) => s + (libyears[d.name]?.[0] ?? 0), 0);
      await db
        .insertInto('repository_drift')
        .values({
          repository_id: r.id,
          scan_id: r.dependency_scan_id ?? '',
          scanned_at: NOW,
          computed_at: NOW,
          dependency_count: mine.length,
          measured_count: mine.length,
          pending_count: 0,
          outdated_count: mine.length,
          libyear_total: total,
          major_behind: mine.reduce((s, d) => s + (libyears[d.name]?.[1] ?? 0), 0),
          minor_behind: mine.length,
          patch_behind: 0,
          deprecated_count: 0,
          yanked_count: 0,
          end_of_life_count: 0,
        })
        .execute();
    }
    for (const d of deps) {
      const [libyear, major] = libyears[d.name] ?? [0, 0];
      await db
        .insertInto('dependency_drift')
        .values({
          repository_id: d.repository_id,
          scan_id: d.scan_id,
          package_id: d.package_id,
          used_version: d.version ?? '',
          resolution: 'resolved',
          state: 'measured',
          compared_version: d.version,
          latest_stable: '9.9.9',
          libyear,
          major_behind: major,
          minor_behind: 1,
          patch_behind: 0,
          deprecated: d.name === 'chalk',
          yanked: false,
          end_of_life: d.name === 'time',
        })
        .execute();
    }
    const scope = JSON.stringify({
      repositoryIds: [],
      ecosystems: [],
      businessCriticalities: [],
      lifecycleStatuses: [],
    });
    const licencePolicy = '0196f000-0000-7000-8000-000000000001';
    const blockPolicy = '0196f000-0000-7000-8000-000000000002';
    await db
      .insertInto('policies')
      .values([
        {
          id: licencePolicy,
          name: 'Permissive licences only',
          description: '',
          condition: 'spdxSatisfies(licence.expression, ["MIT", "Apache-2.0"])',
          severity: 'high',
          action: 'warn',
          enabled: true,
          scope,
          version: 1,
        },
        {
          id: blockPolicy,
          name: 'No critical vulnerabilities',
          description: '',
          condition: 'vulnerabilities.exists(v, v.severity == "critical")',
          severity: 'critical',
          action: 'block',
          enabled: true,
          scope,
          version: 1,
        },
      ])
      .execute();
    const dep = (repo: string, name: string) => {
      const found = deps.find((d) => d.repository_id === repo && d.name === name);
      if (!found) throw new Error(`fixture: no dependency ${name}`);
      return found;
    };
    const violation = (
      id: string,
      policy: string,
      d: ReturnType<typeof dep>,
      severity: 'high' | 'critical',
      action: 'warn' | 'block',
      detected: string,
    ) => ({
      id,
      policy_id: policy,
      repository_id: d.repository_id,
      package_id: d.package_id,
      version: d.version ?? '',
      ecosystem: d.ecosystem,
      package_name: d.name,
      purl: d.purl,
      severity,
      action,
      status: 'open' as const,
      facts: JSON.stringify({}),
      policy_version: 1,
      detected_at: at(detected),
    });
    await db
      .insertInto('policy_violations')
      .values([
        violation(
          '0196f000-0000-7000-8000-00000000000a',
          licencePolicy,
          dep(fixture.repositories.cli, 'chalk'),
          'high',
          'warn',
          '2026-11-03T10:00:00Z',
        ),
        violation(
          '0196f000-0000-7000-8000-00000000000b',
          blockPolicy,
          dep(fixture.repositories.web, '@acme/ui'),
          'critical',
          'block',
          '2026-12-08T09:00:00Z',
        ),
      ])
      .execute();
    await db
      .insertInto('policy_exceptions')
      .values({
        id: '0196f000-0000-7000-8000-0000000000e1',
        policy_id: licencePolicy,
        scope: 'tenant_package',
        package_id: dep(fixture.repositories.web, 'lodash').package_id,
        reason: 'Vendor review pending',
        expires_at: at('2026-12-14T00:00:00Z'),
      })
      .execute();
    await db
      .insertInto('scans')
      .values({
        id: '0196f000-0000-7000-8000-0000000000f1',
        repository_id: fixture.repositories.billing,
        state: 'failed',
        trigger: 'push',
        queued_at: at('2026-12-08T07:00:00Z'),
        finished_at: at('2026-12-08T07:01:00Z'),
        error: 'clone failed: repository not found',
        failure_cause: 'input',
        counts_by_ecosystem: JSON.stringify({}),
      })
      .execute();
  });
  await writeOperations(t, tenantId, fixture);
}
