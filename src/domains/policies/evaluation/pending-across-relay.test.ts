import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  insertRepository,
  type TestApp,
  type TestTenant,
} from '../../../../test/support/scenarios';
import { EVENT_SUBSCRIPTIONS } from '../../../background-jobs';
import { newId } from '../../../db/ids';
import { withTenant } from '../../../db/tenant-scope';
import { relayOutbox } from '../../../jobs/outbox';
import { createJobQueue, type JobEnvelope, type JobQueue } from '../../../jobs/queue';
import { emitEvent } from '../../events';
import { policyJobs } from '../jobs';
import { EVALUATE_REPOSITORY } from './requests';

/**
 * A fact's change is pending for the CI gate from its own commit until its evaluation commits
 * (docs/policies.md#pending-evaluations): first as the event's outbox row, then, from the relay's
 * commit that queues the job, as the request the job contract's `atRelay` writes beside it.
 */
describe('a policy fact event through the real relay', () => {
  let t: TestApp;
  let a: TestTenant;
  let queue: JobQueue;
  const evaluation = () => policyJobs(t.jobDeps).find((d) => d.name === EVALUATE_REPOSITORY.name);
  const relay = () =>
    relayOutbox(t.database, EVENT_SUBSCRIPTIONS, (name, envelope, db) =>
      queue.send(name, envelope, { db }),
    );
  const progress = async (repositoryId: string) => {
    const res = await t.as(a.token, {
      method: 'GET',
      url: `/api/v1/repositories/${repositoryId}/policy-evaluation`,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { state: string; pendingRequests: { reason: string }[] };
  };
  const statusChanged = (repositoryId: string) =>
    withTenant(t.database, a.tenantId, (db) =>
      emitEvent(db, 'exposures.status_changed', {
        tenantId: a.tenantId,
        data: { repositoryId, packageIds: [newId()] },
      }),
    );
  const fetchEvaluations = () =>
    queue.boss.fetch<JobEnvelope<unknown>>(EVALUATE_REPOSITORY.name, { batchSize: 10 });

  beforeAll(async () => {
    t = await createTestApp();
    a = await t.createTenant('enterprise', 'A');
    queue = await createJobQueue(t.database);
    const definition = evaluation();
    if (!definition) throw new Error('no evaluation job');
    queue.register(definition);
    for (const name of new Set(Object.values(EVENT_SUBSCRIPTIONS).flat())) {
      if (name && name !== definition.name) {
        queue.register({ name, expireInSeconds: 60, retryLimit: 0, handle: async () => {} });
      }
    }
    await queue.prepare();
  });
  afterAll(async () => {
    await queue.stop();
    await t.close();
  });

  it('stays pending from the change, across the relay, until the evaluation commits', async () => {
    const repo = await insertRepository(t, a.tenantId, 'gate');
    expect((await progress(repo)).state).toBe('current');
    await statusChanged(repo);
    const reason = 'facts of 1 package(s) changed';
    expect(await progress(repo)).toMatchObject({ state: 'pending', pendingRequests: [{ reason }] });

    expect(await relay()).toBeGreaterThan(0);
    // The outbox row is gone; the request written in the relay's transaction says the same.
    expect(await progress(repo)).toMatchObject({ state: 'pending', pendingRequests: [{ reason }] });
    const [job] = await fetchEvaluations();
    if (!job) throw new Error('the relay queued no evaluation');
    expect(job.data.data).toMatchObject({ repositoryId: repo, requestId: expect.any(String) });

    await evaluation()?.handle(job.data);
    expect(await progress(repo)).toMatchObject({ state: 'current', pendingRequests: [] });
  });

  it('relays the event of a repository deleted meanwhile, with no request left behind', async () => {
    const repo = await insertRepository(t, a.tenantId, 'gone');
    await statusChanged(repo);
    await withTenant(t.database, a.tenantId, (db) =>
      db.deleteFrom('repositories').where('id', '=', repo).execute(),
    );
    expect(await relay()).toBeGreaterThan(0);
    const [job] = await fetchEvaluations();
    expect(job?.data.data).toMatchObject({ repositoryId: repo, requestId: expect.any(String) });
    const requests = await t.database.system
      .selectFrom('policy_evaluation_requests')
      .select('id')
      .where('repository_id', '=', repo)
      .execute();
    expect(requests).toEqual([]);
  });
});
