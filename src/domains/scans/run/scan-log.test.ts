import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitRepository, type GitFixture } from '../../../../test/support/git-fixtures';
import {
  createTestApp,
  scanFixture,
  type TestApp,
  type TestTenant,
} from '../../../../test/support/scenarios';
import { withTenant } from '../../../db/tenant-scope';
import { RUN_SCAN } from '../service';
import { FLUSH_LINES, ScanLogBuffer } from './scan-log';

describe('the scan log buffer', () => {
  it('asks for a flush once FLUSH_LINES lines have gathered, and hands them over in order', () => {
    const buffer = new ScanLogBuffer();
    for (let i = 1; i < FLUSH_LINES; i++)
      expect(buffer.add('info', 'extract', `line ${i}`)).toBe(false);
    expect(buffer.add('warn', 'extract', `line ${FLUSH_LINES}`)).toBe(true);
    const taken = buffer.take();
    expect(taken.map((line) => line.message)).toEqual(
      Array.from({ length: FLUSH_LINES }, (_, i) => `line ${i + 1}`),
    );
    expect(buffer.size).toBe(0);
  });

  it('puts a failed write back before the lines noted since', () => {
    const buffer = new ScanLogBuffer();
    buffer.add('info', 'checkout', 'first');
    const failed = buffer.take();
    buffer.add('info', 'extract', 'second');
    buffer.restore(failed);
    expect(buffer.take().map((line) => line.message)).toEqual(['first', 'second']);
  });
});

/** Files that fail to parse: the worker logs a warning line for each. */
const BROKEN_FILES = 40;

/**
 * A real scan that logs about fifty lines, with a statement-level trigger on scan_logs counting
 * the INSERT statements and the transactions they ran in. A scan writing a line per transaction
 * (as it once did) would show one statement and one transaction per line.
 */
describe('a scan writes its log in a few statements', () => {
  let t: TestApp;
  let tenant: TestTenant;
  let repo: GitFixture;

  beforeAll(async () => {
    t = await createTestApp();
    tenant = await t.createTenant();
    const files: Record<string, string> = {
      'package-lock.json': JSON.stringify({
        name: 'ok',
        lockfileVersion: 3,
        packages: { '': {}, 'node_modules/left-pad': { version: '1.3.0' } },
      }),
    };
    for (let i = 0; i < BROKEN_FILES; i++) files[`broken-${i}/package-lock.json`] = '{ not json';
    repo = createGitRepository(files);
    await t.database.pool.query(`
      CREATE TABLE test_scan_log_writes (txid bigint NOT NULL, lines int NOT NULL);
      CREATE FUNCTION test_count_scan_log_writes() RETURNS trigger
        LANGUAGE plpgsql SECURITY DEFINER AS $$
        BEGIN
          INSERT INTO test_scan_log_writes SELECT txid_current(), count(*) FROM inserted;
          RETURN NULL;
        END $$;
      CREATE TRIGGER test_scan_log_writes AFTER INSERT ON scan_logs
        REFERENCING NEW TABLE AS inserted
        FOR EACH STATEMENT EXECUTE FUNCTION test_count_scan_log_writes();`);
  }, 120_000);
  afterAll(async () => {
    repo?.remove();
    await t?.close();
  });

  it('batches the lines of a whole scan', async () => {
    const { scan, ran } = await scanFixture(t, tenant.tenantId, 'noisy', repo);
    expect(ran).toContain(RUN_SCAN.name);

    const logs = await withTenant(t.database, tenant.tenantId, (db) =>
      db.selectFrom('scan_logs').select('level').where('scan_id', '=', scan.id).execute(),
    );
    const writes = await t.database.pool.query<{
      statements: string;
      transactions: string;
      lines: string;
    }>(
      `SELECT count(*) AS statements, count(DISTINCT txid) AS transactions,
         coalesce(sum(lines), 0) AS lines
       FROM test_scan_log_writes`,
    );
    const counted = writes.rows[0];
    // Every broken file has its warning, and the trigger saw every line written.
    expect(logs.filter((line) => line.level === 'warn').length).toBeGreaterThanOrEqual(
      BROKEN_FILES,
    );
    expect(Number(counted?.lines)).toBe(logs.length);
    // About fifty lines in a handful of statements: a flush when FLUSH_LINES have gathered, the
    // completion's and the clean-up's (a heartbeat may add one). A line per statement or per
    // transaction would be fifty.
    expect(logs.length).toBeGreaterThan(BROKEN_FILES);
    expect(Number(counted?.statements)).toBeLessThanOrEqual(6);
    expect(Number(counted?.transactions)).toBeLessThanOrEqual(Number(counted?.statements));
  }, 120_000);
});
