import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  importJsonl,
  npmRange,
  osvRecord,
  scanWith,
  type TestApp,
  type TestTenant,
  twoTenantsWithRepositories,
} from '../../../test/support/scenarios';

interface ExposureBody {
  exposureId: string;
  repositoryId: string;
  packageName: string;
  version: string | null;
  status: string;
  justification: string | null;
  reason: string | null;
  triageRuleId: string | null;
}

describe('triage rules', () => {
  let t: TestApp;
  let a: TestTenant;
  let b: TestTenant;
  let web: string;
  let api: string;

  const exposures = async (query = '') => {
    const res = await t.as(a.token, {
      method: 'GET',
      url: `/api/v1/vulnerability-exposures?take=200${query}`,
    });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { items: ExposureBody[] }).items;
  };
  const state = async (packageName: string) =>
    (await exposures())
      .filter((e) => e.packageName === packageName)
      .map((e) => [e.repositoryId === web ? 'web' : 'api', e.version, e.status, !!e.triageRuleId])
      .sort();
  const createRule = (token: string, payload: object) =>
    t.as(token, { method: 'POST', url: '/api/v1/triage-rules', payload });

  beforeAll(async () => {
    t = await createTestApp();
    ({
      a,
      b,
      repositories: [web, api],
    } = await twoTenantsWithRepositories(t, ['web', 'api']));
    await importJsonl(t, [
      osvRecord({
        id: 'GHSA-carr-0001-aaaa',
        aliases: ['CVE-2026-11111'],
        databaseSeverity: 'HIGH',
        affected: [npmRange('carry-pkg', '0', '3.0.0')],
      }),
    ]);
    const alertRule = await t.as(a.token, {
      method: 'POST',
      url: '/api/v1/alert-rules',
      payload: { name: 'opened', kind: 'exposure_opened', dedupeWindowMinutes: 0 },
    });
    expect(alertRule.statusCode, alertRule.body).toBe(201);
    for (const repo of [web, api]) {
      await scanWith(t, a.tenantId, repo, [{ name: 'carry-pkg', version: '1.0.0' }], 'all');
    }
  });
  afterAll(() => t.close());

  it('settles the exposures it covers when created, by alias, repository and version range', async () => {
    const res = await createRule(a.token, {
      vulnerability: 'CVE-2026-11111',
      ecosystem: 'Npm',
      packageName: 'carry-pkg',
      versionRange: 'vers:npm/>=1.0.0|<2.0.0',
      repositoryIds: [web],
      status: 'not_affected',
      justification: 'code_not_reachable',
      reason: 'only the CLI entry point uses it',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      vulnerability: 'CVE-2026-11111',
      ecosystem: 'npm',
      purl: 'pkg:npm/carry-pkg',
      status: 'not_affected',
      origin: 'api',
      active: true,
      exposuresSettled: 1,
      exposureCount: 1,
    });
    expect(await state('carry-pkg')).toEqual([
      ['api', '1.0.0', 'open', false],
      ['web', '1.0.0', 'not_affected', true],
    ]);
    const [settled] = await exposures(`&triageRuleId=${res.json().triageRuleId}`);
    expect(settled).toMatchObject({
      justification: 'code_not_reachable',
      reason: 'only the CLI entry point uses it',
    });
    const audit = await t.as(a.token, {
      method: 'GET',
      url: '/api/v1/audit-log?action=vulnerability_exposure.triage_rule_applied',
    });
    expect(audit.json().items[0]).toMatchObject({
      actorTokenId: null,
      resourceId: settled?.exposureId,
      details: { ruleId: res.json().triageRuleId, from: 'open', to: 'not_affected' },
    });
  });

  it('carries to a new version in the range, not to one outside it, and raises no alert for it', async () => {
    await scanWith(t, a.tenantId, web, [{ name: 'carry-pkg', version: '1.5.0' }], 'all');
    expect(await state('carry-pkg')).toEqual([
      ['api', '1.0.0', 'open', false],
      ['web', '1.0.0', 'fixed', true],
      ['web', '1.5.0', 'not_affected', true],
    ]);
    await scanWith(t, a.tenantId, web, [{ name: 'carry-pkg', version: '2.1.0' }], 'all');
    expect((await state('carry-pkg')).filter((e) => e[1] === '2.1.0')).toEqual([
      ['web', '2.1.0', 'open', false],
    ]);
    const alerts = await t.as(a.token, { method: 'GET', url: '/api/v1/alerts?take=100' });
    const versions = (alerts.json().items as { payload: { version: string } }[])
      .map((x) => x.payload.version)
      .sort();
    expect(versions).toEqual(['1.0.0', '1.0.0', '2.1.0']);
  });

  it('covers advisories that arrive later, and a person’s decision replaces the rule’s', async () => {
    await scanWith(t, a.tenantId, api, [
      { name: 'carry-pkg', version: '1.0.0' },
      { name: 'later-pkg', version: '4.0.0' },
    ]);
    const rule = await createRule(a.token, {
      vulnerability: 'GHSA-late-0001-bbbb',
      purl: 'pkg:npm/later-pkg@4.0.0',
      status: 'accepted_risk',
      reason: 'vendor patch scheduled',
      expiresAtUtc: '2099-01-01T00:00:00Z',
    });
    expect(rule.statusCode, rule.body).toBe(201);
    expect(rule.json()).toMatchObject({
      exposuresSettled: 0,
      versionRange: null,
      repositoryIds: [],
    });
    await importJsonl(t, [
      osvRecord({ id: 'GHSA-late-0001-bbbb', affected: [npmRange('later-pkg', '0', '5.0.0')] }),
    ]);
    await t.runJobs();
    const [later] = (await exposures()).filter((e) => e.packageName === 'later-pkg');
    expect(later).toMatchObject({ status: 'accepted_risk', reason: 'vendor patch scheduled' });
    expect(later?.triageRuleId).toBe(rule.json().triageRuleId);

    const patched = await t.as(a.token, {
      method: 'PATCH',
      url: `/api/v1/vulnerability-exposures/${later?.exposureId}`,
      payload: { status: 'investigating' },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json().triageRuleId).toBeNull();
    // A rescan does not put the rule's decision back over the person's.
    await scanWith(t, a.tenantId, api, [
      { name: 'carry-pkg', version: '1.0.0' },
      { name: 'later-pkg', version: '4.0.0' },
    ]);
    const [again] = (await exposures()).filter((e) => e.packageName === 'later-pkg');
    expect(again?.status).toBe('investigating');
  });

  it('revoking reopens what it settled, keeps the rule for the record, and a second revoke is 404', async () => {
    const listed = await t.as(a.token, {
      method: 'GET',
      url: '/api/v1/triage-rules?status=NotAffected&active=true',
    });
    expect(listed.statusCode, listed.body).toBe(200);
    const [rule] = listed.json().items as { triageRuleId: string }[];
    expect(listed.json().totalEstimate).toBe(1);
    const revoke = () =>
      t.as(a.token, { method: 'DELETE', url: `/api/v1/triage-rules/${rule?.triageRuleId}` });
    expect((await revoke()).statusCode).toBe(204);
    // Its exposures are all fixed by now (2.1.0 replaced 1.5.0): none reopens, none carries it.
    expect((await state('carry-pkg')).filter((e) => e[0] === 'web')).toEqual([
      ['web', '1.0.0', 'fixed', false],
      ['web', '1.5.0', 'fixed', false],
      ['web', '2.1.0', 'open', false],
    ]);
    const shown = await t.as(a.token, {
      method: 'GET',
      url: `/api/v1/triage-rules/${rule?.triageRuleId}`,
    });
    expect(shown.json()).toMatchObject({ active: false, exposureCount: 0 });
    expect(shown.json().revokedAtUtc).not.toBeNull();
    expect((await revoke()).statusCode).toBe(404);
    const audit = await t.as(a.token, {
      method: 'GET',
      url: '/api/v1/audit-log?action=triage_rule.revoke',
    });
    expect(audit.json().items[0]).toMatchObject({ resourceId: rule?.triageRuleId });
  });

  it('reopens an exposure it settled when revoked, for a version still in use', async () => {
    await scanWith(t, a.tenantId, web, [{ name: 'carry-pkg', version: '1.5.0' }], 'all');
    const res = await createRule(a.token, {
      vulnerability: 'GHSA-carr-0001-aaaa',
      ecosystem: 'npm',
      packageName: 'carry-pkg',
      status: 'false_positive',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().exposuresSettled).toBe(2);
    expect(
      (await state('carry-pkg')).filter((e) => e[2] !== 'fixed').map((e) => e.slice(2)),
    ).toEqual([
      ['false_positive', true],
      ['false_positive', true],
    ]);
    await t.as(a.token, {
      method: 'DELETE',
      url: `/api/v1/triage-rules/${res.json().triageRuleId}`,
    });
    expect(
      (await state('carry-pkg')).filter((e) => e[2] !== 'fixed').map((e) => e.slice(2)),
    ).toEqual([
      ['open', false],
      ['open', false],
    ]);
  });

  it('refuses what it cannot read (400) and a status rule broken (422)', async () => {
    const base = { vulnerability: 'CVE-2026-11111', ecosystem: 'npm', packageName: 'carry-pkg' };
    const badRange = await createRule(a.token, {
      ...base,
      versionRange: '>=1.0.0',
      status: 'false_positive',
    });
    expect(badRange.statusCode).toBe(400);
    expect(badRange.json().errors.versionRange).toBeDefined();
    const wrongScheme = await createRule(a.token, {
      ...base,
      versionRange: 'vers:pypi/>=1.0',
      status: 'false_positive',
    });
    expect(wrongScheme.json().errors.versionRange).toBeDefined();
    const foreignRepo = await createRule(b.token, {
      ...base,
      repositoryIds: [web],
      status: 'false_positive',
    });
    expect(foreignRepo.statusCode).toBe(400);
    expect(foreignRepo.json().errors.repositoryIds).toBeDefined();
    const badId = await createRule(a.token, {
      ...base,
      vulnerability: 'not an id',
      status: 'false_positive',
    });
    expect(badId.json().errors.vulnerability).toBeDefined();
    const noPackage = await createRule(a.token, {
      vulnerability: 'CVE-1',
      status: 'false_positive',
    });
    expect(noPackage.statusCode).toBe(400);
    const badStatus = await createRule(a.token, { ...base, status: 'affected' });
    expect(badStatus.statusCode).toBe(400);
    const noExpiry = await createRule(a.token, { ...base, status: 'accepted_risk', reason: 'x' });
    expect(noExpiry.statusCode).toBe(422);
    expect(noExpiry.json().errors.expiresAtUtc).toBeDefined();
    const noJustification = await createRule(a.token, { ...base, status: 'not_affected' });
    expect(noJustification.statusCode).toBe(422);
    expect(noJustification.json().errors.justification).toBeDefined();
  });

  it("another tenant's rule is 404, and its list does not show ours", async () => {
    const listed = await t.as(a.token, { method: 'GET', url: '/api/v1/triage-rules' });
    const [rule] = listed.json().items as { triageRuleId: string }[];
    const url = `/api/v1/triage-rules/${rule?.triageRuleId}`;
    expect((await t.as(b.token, { method: 'GET', url })).statusCode).toBe(404);
    expect((await t.as(b.token, { method: 'DELETE', url })).statusCode).toBe(404);
    const theirs = await t.as(b.token, { method: 'GET', url: '/api/v1/triage-rules' });
    expect(theirs.json().items).toEqual([]);
  });
});
