import { createHash } from 'node:crypto';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  createTestApp,
  insertRepository,
  storeScan,
  type TestApp,
  type TestTenant,
} from '../../../test/support/scenarios';
import { rowsMentioning, tenantRowCounts, tokenWithRole } from '../../../test/support/workspace';
import { jobDefinitions } from '../../background-jobs';
import { PLAN_DEFINITIONS } from '../../core/plans';
import { newId } from '../../db/ids';
import { withTenant } from '../../db/tenant-scope';
import { listTenantTables } from './catalogue';
import { EXPIRE_DATA_EXPORTS } from './data-export';
import { INLINE_PURGE_ROWS, requestTenantDeletion } from './deletion';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

const get = (token: string, url: string) => t.as(token, { method: 'GET', url });

/** A tenant with a repository, a completed scan with dependencies and its drift snapshot. */
async function tenantWithData(plan: 'team' | 'enterprise' = 'team'): Promise<TestTenant> {
  const tenant = await t.createTenant(plan);
  await storeScan(t, tenant, 'api', [
    { ecosystem: 'npm', name: 'left-pad', version: '1.0.0' },
    { ecosystem: 'npm', name: 'lodash', version: '4.17.20' },
    { ecosystem: 'PyPI', name: 'requests', version: '2.0.0' },
  ]);
  return tenant;
}

describe('GET /api/v1/tenants/current/usage', () => {
  test('counts stored state against the plan, and another tenant sees only its own', async () => {
    const tenant = await tenantWithData('team');
    await insertRepository(t, tenant.tenantId, 'second');
    const res = await get(tenant.token, '/api/v1/tenants/current/usage');
    expect(res.statusCode).toBe(200);
    const usage = res.json();
    const limits = PLAN_DEFINITIONS.team.limits;
    expect(usage.plan).toBe('team');
    expect(usage.repositories).toEqual({ used: 2, limit: limits.repositories });
    expect(usage.dependencies).toEqual({ used: 3, limit: null });
    expect(usage.scansThisMonth).toEqual({ used: 1, limit: null });
    expect(usage.advisoriesMatched).toEqual({ used: 0, limit: null });
    expect(usage.apiCallsThisWindow.limit).toBe(t.config.rateLimits.tenantPerMinute);
    expect(usage.apiCallsThisWindow.used).toBeGreaterThanOrEqual(1);
    expect(usage.storageBytes.used).toBeGreaterThan(0);

    const other = await t.createTenant('free');
    const theirs = (await get(other.token, '/api/v1/tenants/current/usage')).json();
    expect(theirs.repositories).toEqual({
      used: 0,
      limit: PLAN_DEFINITIONS.free.limits.repositories,
    });
    expect(theirs.dependencies.used).toBe(0);
    expect(theirs.apiCallsThisWindow.limit).toBe(
      Math.min(
        t.config.rateLimits.tenantPerMinute,
        PLAN_DEFINITIONS.free.limits.tenantRequestsPerMinute ?? Infinity,
      ),
    );
  });

  test('API calls are counted per tenant, flushed to the database and read back', async () => {
    const tenant = await t.createTenant('team');
    const viewer = await tokenWithRole(t, tenant, 'viewer');
    for (let i = 0; i < 5; i++) await get(viewer, '/api/v1/feature-flags');
    const before = (await get(viewer, '/api/v1/tenants/current/usage')).json();
    // 1 token create + 5 reads + this call, whether flushed yet or not.
    expect(before.apiCallsThisMonth.used).toBe(7);
    await t.tokenUsage.flush();
    const stored = await t.database.system
      .selectFrom('tenant_api_calls')
      .select((eb) => eb.fn.sum<string>('calls').as('n'))
      .where('tenant_id', '=', tenant.tenantId)
      .executeTakeFirstOrThrow();
    expect(Number(stored.n)).toBe(7);
    const after = (await get(viewer, '/api/v1/tenants/current/usage')).json();
    expect(after.apiCallsThisMonth.used).toBe(8);
    expect(after.apiCallsThisWindow.used).toBeLessThanOrEqual(8);
  });
});

/** What a purge leaves by design: the deletion's record (docs/workspace.md#deletion). */
const DELETION_RECORD = { 'tenant_deletions.deleted_tenant_id': 1 };

/** Enough audit rows that the purge is a job (202) rather than part of the request. */
async function fillAuditLog(tenantId: string): Promise<void> {
  await withTenant(t.database, tenantId, (db) =>
    db
      .insertInto('audit_log')
      .values(
        Array.from({ length: INLINE_PURGE_ROWS + 500 }, (_, i) => ({
          id: newId(),
          action: 'test.fill',
          resource_type: 'test',
          outcome: 'success',
          status_code: 200,
          correlation_id: `fill-${i}`,
        })),
      )
      .execute(),
  );
}

describe('DELETE /api/v1/tenants/current', () => {
  test('owner only: 403 for admin, member and viewer tokens, nothing changed', async () => {
    const tenant = await t.createTenant('team');
    for (const role of ['admin', 'member', 'viewer'] as const) {
      const token = await tokenWithRole(t, tenant, role);
      const res = await t.as(token, { method: 'DELETE', url: '/api/v1/tenants/current' });
      expect(res.statusCode).toBe(403);
      expect(res.headers['content-type']).toContain('application/problem+json');
    }
    expect((await get(tenant.token, '/api/v1/tenants/current/usage')).statusCode).toBe(200);
  });

  test('a small tenant is purged within the request: 204, tokens dead, no row left', async () => {
    const tenant = await t.createTenant('team');
    const other = await tenantWithData();
    const viewer = await tokenWithRole(t, tenant, 'viewer');
    await insertRepository(t, tenant.tenantId, 'only');
    const res = await t.as(tenant.token, { method: 'DELETE', url: '/api/v1/tenants/current' });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect((await get(tenant.token, '/api/v1/feature-flags')).statusCode).toBe(401);
    expect((await get(viewer, '/api/v1/feature-flags')).statusCode).toBe(401);
    // The "404 afterwards" meets the contract's token rules: the old token is revoked,
    // so a repeat DELETE with it is a 401 (identity unknown), not a 404 (api-spec.md,
    // Authentication 7); the 404 is what a deletion that finds the tenant already marked gets.
    const again = await t.as(tenant.token, { method: 'DELETE', url: '/api/v1/tenants/current' });
    expect(again.statusCode).toBe(401);
    expect(again.headers['content-type']).toContain('application/problem+json');
    const left = await tenantRowCounts(t, tenant.tenantId);
    expect(Object.values(left).every((n) => n === 0)).toBe(true);
    // Independently of that list: the id survives only in the deletion's own record.
    expect(await rowsMentioning(t, tenant.tenantId)).toEqual(DELETION_RECORD);
    const row = await t.database.system
      .selectFrom('tenants')
      .select('id')
      .where('id', '=', tenant.tenantId)
      .executeTakeFirst();
    expect(row).toBeUndefined();
    // Only that tenant went.
    expect((await get(other.token, '/api/v1/tenants/current/usage')).json().repositories.used).toBe(
      1,
    );
    // Afterwards it is gone: a deletion request for it is a 404.
    await expect(
      requestTenantDeletion(t.database, tenant.tenantId, tenant.tokenId),
    ).rejects.toMatchObject({
      status: 404,
    });
  });

  test('a larger tenant: 202 with a deletion id, tokens revoked at once, the job leaves zero rows in every tenant table', async () => {
    const tenant = await tenantWithData('enterprise');
    const other = await tenantWithData('enterprise');
    const otherBefore = await tenantRowCounts(t, other.tenantId);
    await t.as(tenant.token, { method: 'POST', url: '/api/v1/tenants/current/data-export' });
    await t.runJobs();
    // Enough audit rows that the purge needs several batches.
    await fillAuditLog(tenant.tenantId);
    await t.tokenUsage.flush();
    const before = await tenantRowCounts(t, tenant.tenantId);
    const populated = Object.entries(before)
      .filter(([, n]) => n > 0)
      .map(([name]) => name);
    // The test is only worth something if the tenant has rows in many tables.
    expect(populated.length).toBeGreaterThanOrEqual(8);

    const res = await t.as(tenant.token, { method: 'DELETE', url: '/api/v1/tenants/current' });
    expect(res.statusCode).toBe(202);
    const body = res.json();
    expect(body).toEqual({
      deletionId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      tenantId: tenant.tenantId,
      state: 'purging',
      requestedAtUtc: expect.any(String),
    });
    // Before the purge has run, every token is already dead.
    expect((await get(tenant.token, '/api/v1/feature-flags')).statusCode).toBe(401);
    expect(
      (await t.as(tenant.token, { method: 'DELETE', url: '/api/v1/tenants/current' })).statusCode,
    ).toBe(401);
    await expect(
      requestTenantDeletion(t.database, tenant.tenantId, tenant.tokenId),
    ).rejects.toMatchObject({
      status: 404,
    });
    await t.runJobs();
    const after = await tenantRowCounts(t, tenant.tenantId);
    expect(Object.keys(after).sort()).toEqual(Object.keys(before).sort());
    expect(Object.entries(after).filter(([, n]) => n > 0)).toEqual([]);
    expect(await rowsMentioning(t, tenant.tenantId)).toEqual(DELETION_RECORD);
    const deletion = await t.database.system
      .selectFrom('tenant_deletions')
      .selectAll()
      .where('id', '=', body.deletionId)
      .executeTakeFirstOrThrow();
    expect(deletion.completed_at).not.toBeNull();
    expect(Number(deletion.rows_deleted)).toBeGreaterThan(INLINE_PURGE_ROWS);
    // The other tenant keeps every row.
    expect(await tenantRowCounts(t, other.tenantId)).toMatchObject(
      Object.fromEntries(
        Object.entries(otherBefore).filter(([name]) => name !== 'tenant_api_calls'),
      ),
    );
  });
});

describe('two DELETEs at once with the owner token', () => {
  // docs/workspace.md#deletion: one deletes; the other is a 404 when it authenticated before
  // the deletion committed, a 401 when after (its token revoked). Never a 500, never a second
  // deletion, nothing of the tenant left behind (an audit entry of the loser included).
  for (const size of ['small', 'larger'] as const) {
    test(`a ${size} tenant: one ${size === 'small' ? 204 : 202}, the other 404 or 401`, async () => {
      const tenant = await tenantWithData();
      if (size === 'larger') await fillAuditLog(tenant.tenantId);
      const remove = () => t.as(tenant.token, { method: 'DELETE', url: '/api/v1/tenants/current' });
      const answers = await Promise.all([remove(), remove()]);
      const [winner, loser] = [...answers].sort((a, b) => a.statusCode - b.statusCode);
      expect(winner?.statusCode, winner?.body).toBe(size === 'small' ? 204 : 202);
      expect([401, 404], loser?.body).toContain(loser?.statusCode);
      expect(loser?.headers['content-type']).toContain('application/problem+json');
      await t.runJobs();
      const deletions = await t.database.system
        .selectFrom('tenant_deletions')
        .select(['completed_at'])
        .where('deleted_tenant_id', '=', tenant.tenantId)
        .execute();
      expect(deletions).toHaveLength(1);
      expect(deletions[0]?.completed_at).not.toBeNull();
      expect(await rowsMentioning(t, tenant.tenantId)).toEqual(DELETION_RECORD);
    });
  }
});

describe('POST /api/v1/tenants/current/data-export', () => {
  test('admins only; 202, then a zip whose manifest matches its files; another tenant gets 404', async () => {
    const tenant = await tenantWithData();
    const admin = await tokenWithRole(t, tenant, 'admin');
    const member = await tokenWithRole(t, tenant, 'member');
    const post = (token: string) =>
      t.as(token, { method: 'POST', url: '/api/v1/tenants/current/data-export' });
    expect((await post(member)).statusCode).toBe(403);
    const res = await post(admin);
    expect(res.statusCode).toBe(202);
    const accepted = res.json();
    expect(accepted.state).toBe('queued');
    expect(accepted.downloadUrl).toBeNull();
    const url = `/api/v1/tenants/current/data-export/${accepted.exportId}`;
    expect((await get(admin, `${url}/download`)).statusCode).toBe(409);
    expect((await get(member, url)).statusCode).toBe(403);

    await t.runJobs();
    const state = (await get(admin, url)).json();
    expect(state.state).toBe('completed');
    expect(state.downloadUrl).toBe(`${url}/download`);
    // Completed, yet members and viewers cannot download it (the owner's token is an admin's).
    expect((await get(member, `${url}/download`)).statusCode).toBe(403);
    const viewer = await tokenWithRole(t, tenant, 'viewer');
    expect((await get(viewer, `${url}/download`)).statusCode).toBe(403);
    const download = await get(admin, `${url}/download`);
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/zip');
    const archive = download.rawPayload;
    expect(archive.byteLength).toBe(state.sizeBytes);
    expect(createHash('sha256').update(archive).digest('hex')).toBe(state.sha256);

    const files = unzipSync(new Uint8Array(archive));
    const manifest = JSON.parse(strFromU8(files['manifest.json'] as Uint8Array));
    expect(manifest.tenantId).toBe(tenant.tenantId);
    const tables = (await listTenantTables(t.database.system)).map((table) => table.name);
    expect(manifest.files.map((f: { table: string }) => f.table).sort()).toEqual(
      ['tenants', ...tables].sort(),
    );
    expect(Object.keys(files).sort()).toEqual(
      ['manifest.json', ...manifest.files.map((f: { name: string }) => f.name)].sort(),
    );
    for (const file of manifest.files) {
      const bytes = files[file.name] as Uint8Array;
      expect(bytes.byteLength).toBe(file.bytes);
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(file.sha256);
      const lines = strFromU8(bytes).split('\n').filter(Boolean);
      expect(lines.length).toBe(file.rows);
      for (const line of lines) {
        const row = JSON.parse(line);
        expect(row.tenant_id ?? row.id).toBe(tenant.tenantId === row.id ? row.id : tenant.tenantId);
      }
    }
    const count = (table: string) =>
      manifest.files.find((f: { table: string }) => f.table === table).rows;
    expect(count('repositories')).toBe(1);
    // The table behind the view: every stored generation (one here).
    expect(count('repository_dependency_rows')).toBe(3);
    expect(count('api_tokens')).toBe(3);
    // Token hashes and sealed secrets never leave.
    expect(strFromU8(files['api_tokens.ndjson'] as Uint8Array)).not.toContain('secret_hash');
    expect(manifest.withheldColumns.api_tokens).toContain('secret_hash');

    const other = await t.createTenant('team');
    expect((await get(other.token, url)).statusCode).toBe(404);
    expect((await get(other.token, `${url}/download`)).statusCode).toBe(404);
  });

  test('expires: 404 once past its time, and the expiry job deletes it', async () => {
    const tenant = await t.createTenant('team');
    const res = await t.as(tenant.token, {
      method: 'POST',
      url: '/api/v1/tenants/current/data-export',
    });
    const { exportId } = res.json();
    await t.runJobs();
    const url = `/api/v1/tenants/current/data-export/${exportId}`;
    expect((await get(tenant.token, `${url}/download`)).statusCode).toBe(200);
    await t.database.system
      .updateTable('tenant_data_exports')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', exportId)
      .execute();
    expect((await get(tenant.token, url)).statusCode).toBe(404);
    expect((await get(tenant.token, `${url}/download`)).statusCode).toBe(404);
    const expire = jobDefinitions(t.jobDeps).find((j) => j.name === EXPIRE_DATA_EXPORTS.name);
    await expire?.handle({ version: 1, tenantId: null, correlationId: null, data: {} });
    const left = await t.database.system
      .selectFrom('tenant_data_exports')
      .select('id')
      .where('id', '=', exportId)
      .execute();
    expect(left).toEqual([]);
  });

  test('malformed export ids are 400, unknown ones 404', async () => {
    const tenant = await t.createTenant('team');
    expect((await get(tenant.token, '/api/v1/tenants/current/data-export/nope')).statusCode).toBe(
      400,
    );
    expect(
      (await get(tenant.token, `/api/v1/tenants/current/data-export/${newId()}`)).statusCode,
    ).toBe(404);
  });
});
