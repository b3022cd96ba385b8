import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageMetadata } from '../../../test/support/scenarios';
import { createTestApp, type TestApp } from '../../../test/support/test-app';
import { newId } from '../../db/ids';
import { markNotFound, saveMetadata } from './store';

const answer = packageMetadata('vanishing', ['1.0.0'], {
  fetchedAtUtc: '2026-01-01T00:00:00Z',
  etag: '"v1"',
});

describe('package catalogue store', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const metadataOf = (packageId: string) =>
    t.database.system
      .selectFrom('package_metadata')
      .select(['status', 'etag', 'latest_stable', 'fetched_at', 'changed_at'])
      .where('package_id', '=', packageId)
      .executeTakeFirstOrThrow();

  it('turns a package the registry no longer knows not_found, keeping its last known facts', async () => {
    const packageId = newId();
    await t.database.system
      .insertInto('packages')
      .values({ id: packageId, ecosystem: 'npm', name: 'vanishing', purl: 'pkg:npm/vanishing' })
      .execute();
    await saveMetadata(t.database.system, packageId, answer, new Date('2026-01-01T00:00:00Z'));
    expect((await metadataOf(packageId)).status).toBe('found');

    const gone = new Date('2026-02-01T00:00:00Z');
    await markNotFound(t.database.system, packageId, gone);
    const after = await metadataOf(packageId);
    expect(after.status).toBe('not_found');
    expect(after.etag).toBeNull();
    expect(after.latest_stable).toBe('1.0.0');
    expect(after.changed_at.toISOString()).toBe(gone.toISOString());

    // Still gone a day later: fetched again, but nothing changed.
    const still = new Date('2026-02-02T00:00:00Z');
    await markNotFound(t.database.system, packageId, still);
    const again = await metadataOf(packageId);
    expect(again.fetched_at.toISOString()).toBe(still.toISOString());
    expect(again.changed_at.toISOString()).toBe(gone.toISOString());
  });
});
