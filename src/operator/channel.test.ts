import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { jsonl, osvRecord } from '../../test/support/scenarios';
import { openTestDatabase } from '../../test/support/test-app';
import type { Database } from '../db/connection';
import {
  findOwner,
  OPERATOR_RECORD,
  type OperatorChannel,
  ownerConnection,
  startOperatorChannel,
} from './channel';
import { OperationInputError } from './operations';

const quiet = { warn: () => {}, error: () => {} };

describe('the operator channel', () => {
  let database: Database;
  let dataDir: string;
  let channel: OperatorChannel;

  beforeAll(async () => {
    database = await openTestDatabase(2);
    dataDir = mkdtempSync(join(tmpdir(), 'dw-operator-'));
    channel = await startOperatorChannel({ database, dataDir, fileUrlRoots: ['/r'] }, quiet);
  }, 60_000);
  afterAll(async () => {
    await channel?.close();
    await database?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('only the user reaches it: a private directory, a 0600 socket and a 0600 record naming it', () => {
    expect(statSync(dirname(channel.socketPath)).mode & 0o777).toBe(0o700);
    expect(statSync(channel.socketPath).mode & 0o777).toBe(0o600);
    const record = join(dataDir, OPERATOR_RECORD);
    expect(statSync(record).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(record, 'utf8'))).toEqual({
      pid: process.pid,
      socket: channel.socketPath,
    });
  });

  test('runs operations against its database; bad input is a usage error, not a failure', async () => {
    const owner = ownerConnection(process.pid, channel.socketPath);
    const file = join(dataDir, 'one.jsonl');
    writeFileSync(file, jsonl([osvRecord({ id: 'GHSA-op00-0001-aaaa' })]));
    expect(await owner.call('import-osv', { source: file })).toMatchObject({ read: 1, added: 1 });
    const created = await owner.call('create-tenant', { name: 'Ops', plan: 'team' });
    expect(created).toMatchObject({ name: 'Ops', plan: 'team' });
    expect(created.ownerToken).toMatch(/^dw_/);
    expect(await owner.call('status', {})).toMatchObject({
      dataDir,
      fileUrlRoots: ['/r'],
      tenants: 1,
      advisories: 1,
    });
    await expect(owner.call('create-tenant', { name: 'X', plan: 'gold' })).rejects.toThrow(
      OperationInputError,
    );
    // A relative path would be resolved against the service's directory, not the caller's.
    await expect(owner.call('import-osv', { source: 'one.jsonl' })).rejects.toThrow(
      'source must be an absolute path',
    );
    await expect(owner.call('import-osv', { source: join(dataDir, 'nope') })).rejects.toThrow(
      'ENOENT',
    );
  });

  test('a directory no live process owns has no owner: the caller opens it', async () => {
    // This process wrote the record but holds no lock: nobody owns the directory.
    expect(await findOwner(dataDir, { waitMs: 0 })).toBeNull();
  });

  test('closing removes the record', async () => {
    const other = mkdtempSync(join(tmpdir(), 'dw-operator-'));
    const second = await startOperatorChannel(
      { database, dataDir: other, fileUrlRoots: [] },
      quiet,
    );
    await second.close();
    expect(() => statSync(join(other, OPERATOR_RECORD))).toThrow();
    rmSync(other, { recursive: true, force: true });
  });
});
