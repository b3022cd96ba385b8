import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeRegistries, startFakeRegistries } from '../../../../test/support/fake-registries';
import {
  createPolicy,
  createTestApp,
  storeScan,
  type TestApp,
  type TestTenant,
} from '../../../../test/support/scenarios';
import { loadConfig } from '../../../config';
import { getEcosystem } from '../../../ecosystems/ecosystem-list';
import type { Ecosystem } from '../../../ecosystems/types';
import { versionRiskInputs } from '../../../intel/package-catalogue/risk-inputs';
import { metadataOf, versionsOf } from '../../../intel/package-catalogue/store';
import type { DependencyFacts } from './definition';

/**
 * The `risk` facts (docs/policies.md#facts) against the package route's risk indicators, through
 * the fake registries: each package is used by one repository at one version, where both must
 * list the same indicators.
 */

interface Violation {
  violationId: string;
  packageName: string;
  facts: DependencyFacts;
}

const HOUR_MS = 3_600_000;

describe('risk facts', () => {
  let t: TestApp;
  let fake: FakeRegistries;
  let a: TestTenant;
  let policyId: string;

  const get = (url: string) => t.as(a.token, { method: 'GET', url });
  const packageId = async (ecosystem: Ecosystem, name: string) =>
    (
      await t.database.system
        .selectFrom('packages')
        .select('id')
        .where('ecosystem', '=', ecosystem)
        .where('name', '=', getEcosystem(ecosystem).normaliseName(name))
        .executeTakeFirstOrThrow()
    ).id;
  /** The facts of every dependency of the tenant, by package name (a dry run writes nothing). */
  const dryRunFacts = async () => {
    const res = await t.as(a.token, {
      method: 'POST',
      url: `/api/v1/policies/${policyId}/test`,
      payload: { condition: 'true' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { violations: { packageName: string; facts: DependencyFacts }[] };
    return new Map(body.violations.map((v) => [v.packageName, v.facts]));
  };

  beforeAll(async () => {
    fake = await startFakeRegistries();
    // A typosquat of express, published an hour ago by one maintainer, running a script.
    const hourAgo = new Date(Date.now() - HOUR_MS).toISOString();
    fake.addPackage('npm', {
      name: 'expresss',
      description: 'Fast web framework',
      licence: 'MIT',
      repositoryUrl: 'https://git.example.org/eve/expresss',
      homepage: 'https://git.example.org/eve/expresss',
      maintainers: ['eve'],
      downloads: 3,
      versions: [
        { version: '4.0.0', publishedAt: hourAgo, scripts: { postinstall: 'node steal.js' } },
      ],
    });
    // A threshold far from the default (730 days): evaluations must use the configured one.
    t = await createTestApp({
      registries: fake.settings(),
      packageIntel: { ...loadConfig({}).packageIntel, unmaintainedAfterDays: 36_500 },
    });
    a = await t.createTenant('enterprise', 'Risk');
    await storeScan(t, a, 'shop', [
      { ecosystem: 'npm', name: 'expresss', version: '4.0.0' },
      { ecosystem: 'npm', name: '@acme/widget', version: '2.0.0' },
      { ecosystem: 'npm', name: 'left-pad', version: '^1.1.0', resolution: 'declared' },
      { ecosystem: 'PyPI', name: 'requests', version: '2.32.0' },
      {
        ecosystem: 'npm',
        name: 'acme-git-only',
        version: '1.0.0',
        source: { kind: 'git', url: 'https://git.example.test/acme/only.git', ref: 'main' },
      },
    ]);
    policyId = await createPolicy(t, a.token, {
      name: 'Typosquats and install scripts',
      condition: '"typosquat" in risk.kinds || "install-scripts" in risk.kinds',
      severity: 'high',
      action: 'block',
    });
    await t.runJobs();
  });

  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  it('opens violations for a typosquat and a package with install scripts, with the risk facts', async () => {
    const res = await get(`/api/v1/policy-violations?policyId=${policyId}`);
    expect(res.statusCode, res.body).toBe(200);
    const items = (res.json() as { items: Violation[] }).items;
    expect(items.map((v) => v.packageName).sort()).toEqual(['@acme/widget', 'expresss']);
    const typosquat = items.find((v) => v.packageName === 'expresss') as Violation;
    const detail = await get(`/api/v1/policy-violations/${typosquat.violationId}`);
    expect(detail.statusCode, detail.body).toBe(200);
    const risk = (detail.json() as Violation).facts.risk;
    expect(risk).toMatchObject({ known: true, maxSeverity: 'high', maxSeverityLevel: 3 });
    expect([...risk.kinds].sort()).toEqual(
      ['install-scripts', 'recently-published', 'single-maintainer', 'typosquat'].sort(),
    );
    expect(risk.count).toBe(risk.kinds.length);
  });

  it('evaluates with the configured thresholds, as the package route does', async () => {
    const res = await get(`/api/v1/policy-violations?policyId=${policyId}`);
    const widget = (res.json() as { items: Violation[] }).items.find(
      (v) => v.packageName === '@acme/widget',
    ) as Violation;
    const detail = (
      await get(`/api/v1/policy-violations/${widget.violationId}`)
    ).json() as Violation;
    const id = await packageId('npm', '@acme/widget');
    const route = (await get(`/api/v1/packages/${id}/risk-indicators`)).json() as {
      items: { kind: string }[];
    };
    // Its last release is over 730 days old: unmaintained by the default, not by the setting.
    expect(route.items.map((i) => i.kind)).not.toContain('unmaintained');
    expect([...detail.facts.risk.kinds].sort()).toEqual(route.items.map((i) => i.kind).sort());
  });

  it('lists the same indicators as GET /api/v1/packages/{id}/risk-indicators', async () => {
    const facts = await dryRunFacts();
    const packages: [Ecosystem, string][] = [
      ['npm', 'expresss'],
      ['npm', '@acme/widget'],
      ['npm', 'left-pad'],
      ['PyPI', 'requests'],
      ['npm', 'acme-git-only'],
    ];
    const seen = new Set<string>();
    for (const [ecosystem, name] of packages) {
      const id = await packageId(ecosystem, name);
      const res = await get(`/api/v1/packages/${id}/risk-indicators`);
      expect(res.statusCode, res.body).toBe(200);
      const routeKinds = (res.json() as { items: { kind: string }[] }).items.map((i) => i.kind);
      const risk = facts.get(getEcosystem(ecosystem).normaliseName(name))?.risk;
      expect(risk, name).toBeDefined();
      expect([...(risk?.kinds ?? [])].sort(), name).toEqual([...routeKinds].sort());
      for (const kind of routeKinds) seen.add(kind);
    }
    // The packages cover registry, version and usage indicators, not only the name.
    for (const kind of [
      'typosquat',
      'install-scripts',
      'new-maintainer',
      'deprecated',
      'yanked',
      'floating-range-without-lockfile',
      'git-or-url-dependency',
    ]) {
      expect(seen, kind).toContain(kind);
    }
    // The registry does not know the git-only package: judged on its name and declaration.
    expect(facts.get('acme-git-only')?.risk).toMatchObject({
      known: false,
      kinds: ['git-or-url-dependency'],
      maxSeverity: 'medium',
    });
  });

  it('IDE verdicts judge risk from the catalogue: the typosquat blocks', async () => {
    const res = await t.as(a.token, {
      method: 'POST',
      url: '/api/v1/ide/verdicts:batch',
      payload: {
        packages: [
          { ecosystem: 'npm', name: 'expresss', version: '4.0.0' },
          { ecosystem: 'npm', name: 'left-pad', version: '1.1.0' },
        ],
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const items = (
      res.json() as { items: { name: string; verdict: string; policies: { policyId: string }[] }[] }
    ).items;
    const [typosquat, leftPad] = items;
    expect(typosquat).toMatchObject({ name: 'expresss', verdict: 'block' });
    expect(typosquat?.policies.map((p) => p.policyId)).toEqual([policyId]);
    expect(leftPad?.policies.map((p) => p.policyId)).not.toContain(policyId);
  });

  it('says unknown, not clean, for metadata stored without risk inputs', async () => {
    const id = await packageId('npm', '@acme/widget');
    const stored = await t.database.system
      .selectFrom('package_metadata')
      .select('risk_inputs')
      .where('package_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(stored.risk_inputs).not.toBeNull();
    await t.database.system
      .updateTable('package_metadata')
      .set({ risk_inputs: null })
      .where('package_id', '=', id)
      .execute();
    try {
      const risk = (await dryRunFacts()).get('@acme/widget')?.risk;
      expect(risk).toMatchObject({ known: false, kinds: [], count: 0, maxSeverity: 'none' });
    } finally {
      await t.database.system
        .updateTable('package_metadata')
        .set({ risk_inputs: JSON.stringify(stored.risk_inputs) })
        .where('package_id', '=', id)
        .execute();
    }
  });

  it('migration 0032 fills older rows as enrichment computes them', async () => {
    const ids = await Promise.all(
      (
        [
          ['npm', 'expresss'],
          ['npm', '@acme/widget'],
          ['npm', 'left-pad'],
          ['PyPI', 'requests'],
        ] as const
      ).map(([ecosystem, name]) => packageId(ecosystem, name)),
    );
    const expected = new Map<string, unknown>();
    for (const id of ids) {
      const metadata = await metadataOf(t.database.system, id);
      if (!metadata) throw new Error('metadata missing');
      expect(metadata.risk_inputs).toEqual(
        versionRiskInputs(metadata, await versionsOf(t.database.system, id)),
      );
      expected.set(id, metadata.risk_inputs);
    }
    expect(
      [...expected.values()].some(
        (inputs) => (inputs as { latestMaintainerChange: unknown }).latestMaintainerChange !== null,
      ),
    ).toBe(true);
    await t.database.system
      .updateTable('package_metadata')
      .set({ risk_inputs: null })
      .where('package_id', 'in', ids)
      .execute();
    const migration = readFileSync(
      new URL('../../../db/migrations/0032_package_risk_inputs.sql', import.meta.url),
      'utf8',
    );
    const statements = migration
      .split('\n')
      .filter((line) => !line.startsWith('--'))
      .join('\n')
      .split(';')
      .map((statement) => statement.trim())
      .filter((statement) => statement !== '');
    expect(statements).toHaveLength(2);
    for (const statement of statements) await sql.raw(statement).execute(t.database.system);
    for (const id of ids) {
      const row = await t.database.system
        .selectFrom('package_metadata')
        .select('risk_inputs')
        .where('package_id', '=', id)
        .executeTakeFirstOrThrow();
      expect(row.risk_inputs, id).toEqual(expected.get(id));
    }
  });
});
