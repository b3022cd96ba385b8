import type { Kysely } from 'kysely';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import type { DB } from '../db/schema';
import { defineJob, InvalidJobPayloadError, jobDefinition } from './contract';
import { enqueue } from './outbox';
import { type JobEnvelope, startsJob } from './queue';

const PING = defineJob({
  name: 'test.ping',
  payload: Type.Object({ repositoryId: Type.String(), count: Type.Optional(Type.Integer()) }),
  expireInSeconds: 60,
  retryLimit: 3,
  sendOptions: (envelope) => ({ singletonKey: envelope.data.repositoryId }),
});

const envelope = (data: unknown): JobEnvelope<unknown> => ({
  version: 1,
  tenantId: 't',
  correlationId: null,
  data,
});

describe('job contracts', () => {
  it('hands a matching payload to the handler, typed', async () => {
    const seen: string[] = [];
    const definition = jobDefinition(PING, async ({ data }) => {
      seen.push(data.repositoryId);
    });
    await definition.handle(envelope({ repositoryId: 'r1', count: 2 }));
    expect(seen).toEqual(['r1']);
    expect(definition).toMatchObject({ name: 'test.ping', expireInSeconds: 60, retryLimit: 3 });
  });

  it('refuses a payload that does not match, before the handler runs', async () => {
    let ran = false;
    const definition = jobDefinition(PING, async () => {
      ran = true;
    });
    const failure = definition.handle(envelope({ repositoryId: 7 }));
    await expect(failure).rejects.toBeInstanceOf(InvalidJobPayloadError);
    await expect(failure).rejects.toThrow(/test\.ping.*repositoryId/);
    await expect(definition.handle(envelope(null))).rejects.toBeInstanceOf(InvalidJobPayloadError);
    await expect(
      definition.handle({
        version: 1,
        tenantId: 5,
        correlationId: null,
        data: { repositoryId: 'r' },
      } as never),
    ).rejects.toThrow(/tenantId/);
    expect(ran).toBe(false);
  });

  it('reads send options from a matching payload only', () => {
    const definition = jobDefinition(PING, async () => {});
    const base = { tenantId: 't', correlationId: null };
    expect(definition.sendOptions?.({ ...base, data: { repositoryId: 'r1' } })).toEqual({
      singletonKey: 'r1',
    });
    expect(definition.sendOptions?.({ ...base, data: {} })).toEqual({});
  });

  it('takes an expiry known only with the domain dependencies', () => {
    const definition = jobDefinition(PING, async () => {}, { expireInSeconds: 999 });
    expect(definition.expireInSeconds).toBe(999);
  });

  it('enqueue accepts only the contract payload (checked by tsc)', () => {
    const db = {} as Kysely<DB>;
    // Never called: the lines exist for the compiler, which must reject the wrong payloads.
    const typeChecks = () => [
      enqueue(db, PING, { tenantId: 't', data: { repositoryId: 'r' } }),
      // @ts-expect-error: a missing field
      enqueue(db, PING, { tenantId: 't', data: {} }),
      // @ts-expect-error: a field of the wrong type
      enqueue(db, PING, { tenantId: 't', data: { repositoryId: 1 } }),
    ];
    expect(typeof typeChecks).toBe('function');
  });

  it('starts only the payloads it accepts; a mismatched one still starts, to fail on its claim', async () => {
    const seen: string[] = [];
    const outsideScans = defineJob({
      name: 'test.outside-scans',
      payload: Type.Object({ repositoryId: Type.String(), scanId: Type.Optional(Type.String()) }),
      expireInSeconds: 60,
      retryLimit: 3,
      accepts: (data) => data.scanId === undefined,
    });
    const definition = jobDefinition(outsideScans, async ({ data }) => {
      seen.push(data.repositoryId);
    });
    const base = { tenantId: 't', correlationId: null };
    expect(startsJob(definition, { ...base, data: { repositoryId: 'r1' } })).toBe(true);
    expect(startsJob(definition, { ...base, data: { repositoryId: 'r2', scanId: 's' } })).toBe(
      false,
    );
    expect(startsJob(definition, { ...base, data: { repositoryId: 3 } })).toBe(true);
    // Claimed anyway (sent before the contract said so): passed over, the handler never runs.
    await definition.handle(envelope({ repositoryId: 'r2', scanId: 's' }));
    await definition.handle(envelope({ repositoryId: 'r1' }));
    expect(seen).toEqual(['r1']);
    // Without `accepts`, every envelope starts its job.
    expect(
      startsJob(
        jobDefinition(PING, async () => {}),
        { ...base, data: {} },
      ),
    ).toBe(true);
  });
});
