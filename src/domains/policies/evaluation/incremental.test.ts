import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  insertRepository,
  scanWith,
  type TestApp,
  type TestTenant,
} from '../../../../test/support/scenarios';
import { newId } from '../../../db/ids';
import { withTenant } from '../../../db/tenant-scope';
import { MATCH_DEPENDENCIES } from '../../exposures/jobs';
import { EVALUATE_REPOSITORY } from '../jobs';
import { insertPolicy } from '../store';
import { evaluateRepository } from './evaluate';

/**
 * A scan's evaluation is incremental (docs/policies.md#evaluation): only the dependencies whose
 * facts changed since the last evaluation by every policy are evaluated; the violations of the
 * others are not touched; those of dependencies that are gone resolve.
 */
describe('incremental evaluation after a scan', () => {
  let t: TestApp;
  let a: TestTenant;
  let repo: string;
  let libPolicy: string;

  const scan = (versions: Record<string, string>, jobs = [MATCH_DEPENDENCIES.name]) =>
    scanWith(
      t,
      a.tenantId,
      repo,
      Object.entries(versions).map(([name, version]) => ({ name, version })),
      jobs,
    );
  const evaluate = () =>
    withTenant(t.database, a.tenantId, (db) =>
      evaluateRepository(db, { tenantId: a.tenantId, repositoryId: repo }),
    );
  /** Every violation row, by "policy package@version". */
  const rows = async () => {
    const list = await t.database.system
      .selectFrom('policy_violations')
      .selectAll()
      .where('repository_id', '=', repo)
      .execute();
    return new Map(
      list.map((row) => [
        `${row.policy_id === libPolicy ? 'lib' : 'two'} ${row.package_name}@${row.version}`,
        row,
      ]),
    );
  };
  const policy = (name: string, condition: string) =>
    withTenant(t.database, a.tenantId, async (db) => {
      const row = await insertPolicy(
        db,
        newId(),
        {
          name,
          description: '',
          condition,
          severity: 'high',
          action: 'warn',
          enabled: true,
          scope: {
            repositoryIds: [],
            ecosystems: [],
            businessCriticalities: [],
            lifecycleStatuses: [],
          },
        },
        a.tokenId,
      );
      return row.id;
    });

  beforeAll(async () => {
    t = await createTestApp();
    a = await t.createTenant('enterprise', 'A');
    repo = await insertRepository(t, a.tenantId, 'web');
    libPolicy = await policy('Libraries', 'dependency.name.startsWith("lib-")');
    await policy('Version two', 'dependency.version == "2.0.0"');
    // The scan's own evaluation (dependencies.changed) records what every policy saw.
    await scan({ 'lib-a': '1.0.0', 'lib-b': '1.0.0', 'lib-c': '1.0.0', other: '1.0.0' }, [
      MATCH_DEPENDENCIES.name,
      EVALUATE_REPOSITORY.name,
    ]);
  });
  afterAll(() => t.close());

  it('a rescan changing one dependency touches only its violations; a removed one resolves', async () => {
    const before = await rows();
    expect([...before.keys()].sort()).toEqual([
      'lib lib-a@1.0.0',
      'lib lib-b@1.0.0',
      'lib lib-c@1.0.0',
    ]);
    const acknowledged = await t.as(a.token, {
      method: 'PATCH',
      url: `/api/v1/policy-violations/${before.get('lib lib-a@1.0.0')?.id}`,
      payload: { status: 'acknowledged' },
    });
    expect(acknowledged.statusCode, acknowledged.body).toBe(200);
    const untouched = (await rows()).get('lib lib-a@1.0.0');

    // lib-b moves to 2.0.0, lib-c leaves, lib-d arrives; lib-a and other stay as they were.
    await scan({ 'lib-a': '1.0.0', 'lib-b': '2.0.0', 'lib-d': '1.0.0', other: '1.0.0' });
    const counts = await evaluate();
    expect(counts).toMatchObject({ dependencies: 4, evaluated: 2, opened: 3, resolved: 2 });
    const after = await rows();
    // The unchanged dependency's violation is the same row, untouched (its triage too).
    expect(after.get('lib lib-a@1.0.0')).toEqual(untouched);
    expect(after.get('lib lib-a@1.0.0')?.status).toBe('acknowledged');
    expect(after.get('lib lib-b@1.0.0')).toMatchObject({ status: 'resolved' });
    expect(after.get('lib lib-c@1.0.0')).toMatchObject({ status: 'resolved' });
    expect(after.get('lib lib-b@2.0.0')).toMatchObject({ status: 'open' });
    expect(after.get('two lib-b@2.0.0')).toMatchObject({ status: 'open' });
    expect(after.get('lib lib-d@1.0.0')).toMatchObject({ status: 'open' });
    // Only the groups the condition read are stored.
    expect(Object.keys(after.get('two lib-b@2.0.0')?.facts ?? {})).toEqual(['dependency']);

    // Nothing changed since: nothing is evaluated, nothing written.
    expect(await evaluate()).toMatchObject({ evaluated: 0, opened: 0, resolved: 0, held: 0 });
    expect(await rows()).toEqual(after);
  });

  it('a dependency that comes back reopens its violation; a fact of the repository changes all', async () => {
    await scan({
      'lib-a': '1.0.0',
      'lib-b': '2.0.0',
      'lib-c': '1.0.0',
      'lib-d': '1.0.0',
      other: '1.0.0',
    });
    expect(await evaluate()).toMatchObject({ evaluated: 1, reopened: 1, opened: 0, resolved: 0 });
    expect((await rows()).get('lib lib-c@1.0.0')).toMatchObject({
      status: 'open',
      reopened_count: 1,
    });

    // The repository's facts are every dependency's: a change evaluates them all again, and
    // a held violation whose stored facts did not change is still not written.
    const held = await rows();
    await withTenant(t.database, a.tenantId, (db) =>
      db
        .updateTable('repositories')
        .set({ business_criticality: 'high' })
        .where('id', '=', repo)
        .execute(),
    );
    expect(await evaluate()).toMatchObject({ evaluated: 5, opened: 0, resolved: 0, held: 5 });
    expect(await rows()).toEqual(held);
  });

  it('a policy that reads the release age looks at every dependency, not only changed ones', async () => {
    const aged = await policy(
      'Fresh',
      'release.known && release.ageDays < 3 || dependency.name == "other"',
    );
    const counts = await evaluate();
    // No dependency changed, but the age changes by the day: that policy saw all five.
    expect(counts).toMatchObject({ evaluated: 0, opened: 1 });
    const list = await t.database.system
      .selectFrom('policy_violations')
      .select(['package_name', 'facts'])
      .where('policy_id', '=', aged)
      .execute();
    expect(list).toMatchObject([{ package_name: 'other' }]);
    expect(Object.keys(list[0]?.facts ?? {}).sort()).toEqual(['dependency', 'release']);
  });
});
