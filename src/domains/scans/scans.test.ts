import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createGitRepository,
  type GitFixture,
  POLYGLOT_FILES,
} from '../../../test/support/git-fixtures';
import { createTestApp, type TestApp, type TestTenant } from '../../../test/support/test-app';
import { newId } from '../../db/ids';

let t: TestApp;
let repo: GitFixture;
let tenant: TestTenant;
let other: TestTenant;
let repositoryId: string;

beforeAll(async () => {
  t = await createTestApp();
  repo = createGitRepository(POLYGLOT_FILES);
  tenant = await t.createTenant();
  other = await t.createTenant();
  const imported = await t.as(tenant.token, {
    method: 'POST',
    url: '/api/v1/repositories/import',
    payload: { repositories: [{ url: repo.url }] },
  });
  repositoryId = imported.json().items[0].repositoryId;
});
afterAll(async () => {
  repo.remove();
  await t?.close();
});

const trigger = (token: string, id = repositoryId) =>
  t.as(token, { method: 'POST', url: `/api/v1/repositories/${id}/scan` });
const get = (token: string, url: string) => t.as(token, { method: 'GET', url });
const cancel = (token: string, scanId: string) =>
  t.as(token, { method: 'POST', url: `/api/v1/scans/${scanId}/cancel` });

describe('scans API', () => {
  let completedId: string;

  it('queues a scan (202), refuses a second while it is queued (409), and runs it', async () => {
    const first = await trigger(tenant.token);
    expect(first.statusCode).toBe(202);
    const scan = first.json();
    expect(scan).toMatchObject({
      repositoryId,
      state: 'queued',
      trigger: 'manual',
      branch: 'main',
      startedAtUtc: null,
      finishedAtUtc: null,
      durationMs: null,
      attempt: 0,
      error: null,
      countsByEcosystem: {},
      dependencyCount: 0,
    });
    const second = await trigger(tenant.token);
    expect(second.statusCode).toBe(409);
    expect(second.json().errors.repositoryId[0]).toContain(scan.scanId);
    const detail = await get(tenant.token, `/api/v1/repositories/${repositoryId}`);
    expect(detail.json().activeScan).toMatchObject({ scanId: scan.scanId, state: 'queued' });

    await t.runJobs();
    const done = await get(tenant.token, `/api/v1/scans/${scan.scanId}`);
    expect(done.statusCode).toBe(200);
    expect(done.json()).toMatchObject({
      state: 'completed',
      attempt: 1,
      error: null,
      countsByEcosystem: { npm: 3, Cargo: 1, Go: 1, PyPI: 2 },
      dependencyCount: 7,
      fileCount: 7,
    });
    expect(done.json().commitSha).toMatch(/^[0-9a-f]{40}$/);
    expect(done.json().durationMs).toBeGreaterThanOrEqual(0);
    completedId = scan.scanId;
  });

  it('409 when cancelling a finished scan; cancels a queued one (200), which then never runs', async () => {
    const finished = await cancel(tenant.token, completedId);
    expect(finished.statusCode).toBe(409);
    const queued = (await trigger(tenant.token)).json();
    const cancelled = await cancel(tenant.token, queued.scanId);
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json()).toMatchObject({ scanId: queued.scanId, state: 'cancelled' });
    expect(cancelled.json().finishedAtUtc).not.toBeNull();
    expect((await cancel(tenant.token, queued.scanId)).statusCode).toBe(409);
    await t.runJobs();
    const after = (await get(tenant.token, `/api/v1/scans/${queued.scanId}`)).json();
    expect(after).toMatchObject({ state: 'cancelled', attempt: 0, startedAtUtc: null });
    const logs = (await get(tenant.token, `/api/v1/scans/${queued.scanId}/logs`)).json();
    expect(logs.items.map((l: { step: string }) => l.step)).toEqual(['cancel']);
    // A new scan may be triggered once the previous one is finished.
    expect((await trigger(tenant.token)).statusCode).toBe(202);
    await t.runJobs();
  });

  it('lists newest first with repositoryId, state (case-insensitive) and take', async () => {
    const all = (await get(tenant.token, '/api/v1/scans')).json();
    expect(all.take).toBe(50);
    expect(all.totalReturned).toBe(all.items.length);
    expect(all.items.length).toBe(3);
    const queuedAt = all.items.map((s: { queuedAtUtc: string }) => s.queuedAtUtc);
    expect([...queuedAt].sort().reverse()).toEqual(queuedAt);
    expect(all.items.map((s: { state: string }) => s.state)).toEqual([
      'completed',
      'cancelled',
      'completed',
    ]);
    const completed = (await get(tenant.token, '/api/v1/scans?state=Completed')).json();
    expect(completed.items).toHaveLength(2);
    expect((await get(tenant.token, '/api/v1/scans?state=CANCELLED')).json().items).toHaveLength(1);
    expect((await get(tenant.token, '/api/v1/scans?state=Running')).json().items).toEqual([]);
    const one = (await get(tenant.token, '/api/v1/scans?take=1')).json();
    expect(one).toMatchObject({ take: 1, totalReturned: 1 });
    expect(one.items[0].scanId).toBe(all.items[0].scanId);
    expect((await get(tenant.token, `/api/v1/scans?repositoryId=${newId()}`)).json().items).toEqual(
      [],
    );
    expect(
      (await get(tenant.token, `/api/v1/scans?repositoryId=${repositoryId}`)).json().items,
    ).toHaveLength(3);
    for (const bad of ['state=done', 'take=0', 'take=x', 'repositoryId=123']) {
      expect((await get(tenant.token, `/api/v1/scans?${bad}`)).statusCode, bad).toBe(400);
    }
    expect((await get(tenant.token, '/api/v1/scans?take=100000')).json().take).toBe(200);
  });

  it('returns log lines newest first, with take and sinceUtc', async () => {
    const base = `/api/v1/scans/${completedId}/logs`;
    const logs = (await get(tenant.token, base)).json();
    expect(logs.items.map((l: { step: string }) => l.step)).toEqual([
      // The policy evaluation after the scan (its jobs ran), newest (docs/policies.md#ci-gate).
      'policies',
      'cleanup',
      'store',
      'quantum',
      'reachability',
      'extract',
      'checkout',
      'checkout',
      'start',
    ]);
    expect(logs.items.every((l: { level: string }) => l.level === 'info')).toBe(true);
    expect(logs.items[2].message).toMatch(/stored 7 dependencies from 7 files/);
    const two = (await get(tenant.token, `${base}?take=2`)).json();
    expect(two).toMatchObject({ take: 2, totalReturned: 2 });
    expect(two.items.map((l: { step: string }) => l.step)).toEqual(['policies', 'cleanup']);
    const since = logs.items[3].loggedAtUtc;
    const recent = (
      await get(tenant.token, `${base}?sinceUtc=${encodeURIComponent(since)}`)
    ).json();
    expect(recent.items.every((l: { loggedAtUtc: string }) => l.loggedAtUtc >= since)).toBe(true);
    expect(recent.items.length).toBeGreaterThanOrEqual(3);
    const future = (await get(tenant.token, `${base}?sinceUtc=2999-01-01T00:00:00Z`)).json();
    expect(future.items).toEqual([]);
    expect((await get(tenant.token, `${base}?sinceUtc=yesterday`)).statusCode).toBe(400);
  });

  it('404 for unknown scans and repositories, 400 for malformed ids', async () => {
    const unknown = newId();
    expect((await get(tenant.token, `/api/v1/scans/${unknown}`)).statusCode).toBe(404);
    expect((await get(tenant.token, `/api/v1/scans/${unknown}/logs`)).statusCode).toBe(404);
    expect((await cancel(tenant.token, unknown)).statusCode).toBe(404);
    expect((await trigger(tenant.token, unknown)).statusCode).toBe(404);
    expect((await trigger(tenant.token, 'nope')).statusCode).toBe(400);
    expect((await get(tenant.token, '/api/v1/scans/nope')).statusCode).toBe(400);
  });

  it("is 404 on every scan route for another tenant's token, and lists nothing of it", async () => {
    const routes: Array<[string, string]> = [
      ['GET', `/api/v1/scans/${completedId}`],
      ['GET', `/api/v1/scans/${completedId}/logs`],
      ['POST', `/api/v1/scans/${completedId}/cancel`],
      ['POST', `/api/v1/repositories/${repositoryId}/scan`],
    ];
    for (const [method, url] of routes) {
      const res = await t.as(other.token, { method: method as 'GET', url });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    expect((await get(other.token, '/api/v1/scans')).json().items).toEqual([]);
    expect(
      (await get(other.token, `/api/v1/scans?repositoryId=${repositoryId}`)).json().items,
    ).toEqual([]);
  });

  it('records triggers and cancels in the audit log', async () => {
    const audit = (await get(tenant.token, '/api/v1/audit-log?take=200')).json();
    const actions = audit.items.map((e: { action: string }) => e.action);
    expect(actions).toContain('scan.trigger');
    expect(actions).toContain('scan.cancel');
    expect(actions).toContain('repository.import');
  });
});
