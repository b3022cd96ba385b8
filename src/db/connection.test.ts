import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { eventually } from '../../test/support/eventually';
import { createScratchDatabase } from '../../test/support/service-process';
import { openDatabase } from './connection';
import { migrate } from './migrate';

const serverUrl = process.env.TEST_DATABASE_URL;

// On the embedded database, close stops the server itself; this is about a server's sessions.
describe.runIf(serverUrl)('closing a PostgreSQL database', () => {
  it('ends every session, also when only the raw pool was used (migrations)', async () => {
    const scratch = await createScratchDatabase(serverUrl as string);
    const observer = new pg.Client({ connectionString: serverUrl });
    await observer.connect();
    const sessions = async () =>
      Number(
        (
          await observer.query('SELECT count(*) AS n FROM pg_stat_activity WHERE datname = $1', [
            scratch.name,
          ])
        ).rows[0].n,
      );
    try {
      const database = await openDatabase({ url: scratch.url, dataDir: null, poolSize: 2 });
      await migrate(database.pool);
      expect(await sessions()).toBeGreaterThan(0);
      await database.close();
      // A backend leaves as soon as its client says goodbye; give it a moment, not a timeout.
      await eventually(sessions, {
        what: 'the sessions to end',
        timeoutMs: 1_000,
        intervalMs: 20,
        until: (n) => n === 0,
      });
      expect(await sessions()).toBe(0);
    } finally {
      await observer.end();
      await scratch.drop();
    }
  });
});
