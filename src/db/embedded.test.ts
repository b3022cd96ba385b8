import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquireDataDirLock, DataDirLockedError, startEmbeddedServer } from './embedded';

/** /proc/<pid>/stat field 22, as the lock records it. */
function startTicksOf(pid: number): string {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] as string;
}

const bootId = () => readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();

describe.runIf(existsSync('/proc/self/stat'))('the embedded data directory lock', () => {
  let dir: string;
  let lockFile: string;
  let other: ChildProcess;
  let otherPid: number;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'driftwatch-lock-'));
    lockFile = join(dir, 'driftwatch.lock');
    // A live process that is not a Driftwatch service: what a recycled pid looks like.
    other = spawn('sleep', ['30'], { stdio: 'ignore' });
    otherPid = other.pid as number;
  });
  afterAll(() => {
    other?.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('takes over a lock naming a live process with another start time (recycled pid)', async () => {
    writeFileSync(lockFile, JSON.stringify({ pid: otherPid, bootId: bootId(), startTicks: '1' }));
    // The whole service path: PGlite starts in the directory despite the stale lock.
    const server = await startEmbeddedServer(dir);
    try {
      expect(JSON.parse(readFileSync(lockFile, 'utf8')).pid).toBe(process.pid);
    } finally {
      await server.stop();
    }
    expect(existsSync(lockFile)).toBe(false);
  }, 120_000);

  it('takes over a lock from before the last boot naming a live pid', () => {
    const startTicks = startTicksOf(otherPid);
    writeFileSync(lockFile, JSON.stringify({ pid: otherPid, bootId: 'another-boot', startTicks }));
    acquireDataDirLock(lockFile)();
  });

  it('takes over a bare-pid lock written before that process started', () => {
    writeFileSync(lockFile, String(otherPid));
    const anHourAgo = new Date(Date.now() - 3_600_000);
    utimesSync(lockFile, anHourAgo, anHourAgo);
    acquireDataDirLock(lockFile)();
    expect(existsSync(lockFile)).toBe(false);
  });

  it('refuses a lock whose live owner matches pid and start time, with the clear error', () => {
    const held = JSON.stringify({
      pid: otherPid,
      bootId: bootId(),
      startTicks: startTicksOf(otherPid),
    });
    writeFileSync(lockFile, held);
    expect(() => acquireDataDirLock(lockFile)).toThrow(DataDirLockedError);
    expect(() => acquireDataDirLock(lockFile)).toThrow(
      `The data directory is in use by process ${otherPid}`,
    );
    // Refusing leaves the owner's lock in place.
    expect(readFileSync(lockFile, 'utf8')).toBe(held);
  });

  it('refuses a bare-pid lock written after its live owner started', () => {
    writeFileSync(lockFile, String(otherPid));
    expect(() => acquireDataDirLock(lockFile)).toThrow(DataDirLockedError);
  });

  it('takes over a lock whose process has exited, and releases only its own lock', async () => {
    const gone = spawn('true', { stdio: 'ignore' });
    await new Promise((resolve) => gone.once('exit', resolve));
    writeFileSync(lockFile, JSON.stringify({ pid: gone.pid, bootId: bootId(), startTicks: '5' }));
    const release = acquireDataDirLock(lockFile);
    // A later owner's lock (written after ours was removed by hand) survives our release.
    rmSync(lockFile);
    writeFileSync(lockFile, String(otherPid));
    release();
    expect(readFileSync(lockFile, 'utf8')).toBe(String(otherPid));
  });
});

describe('the embedded database in its worker thread', () => {
  it("runs queries beside the caller's event loop, and snapshots into another database", async () => {
    const server = await startEmbeddedServer(null);
    let copy: Awaited<ReturnType<typeof startEmbeddedServer>> | undefined;
    const pool = new pg.Pool({ host: server.socketDir, port: 5432, user: 'postgres', max: 1 });
    try {
      await pool.query('CREATE TABLE kept (value text)');
      await pool.query("INSERT INTO kept VALUES ('from the first database')");
      // pg_sleep holds the thread PGlite runs on for 3 s. In this thread (the old design) a
      // 50 ms timer could only fire once the sleep ended; beside it, it fires well before.
      const sleeping = pool.query('SELECT pg_sleep(3)').then(() => performance.now());
      const timerFired = await new Promise<number>((resolve) =>
        setTimeout(() => resolve(performance.now()), 50),
      );
      expect(await sleeping).toBeGreaterThan(timerFired + 1500);
      copy = await startEmbeddedServer(null, await server.snapshot());
      const copied = new pg.Client({ host: copy.socketDir, port: 5432, user: 'postgres' });
      await copied.connect();
      const { rows } = await copied.query('SELECT value FROM kept');
      await copied.end();
      expect(rows).toEqual([{ value: 'from the first database' }]);
    } finally {
      await pool.end();
      await copy?.stop();
      await server.stop();
    }
    expect(existsSync(server.socketDir)).toBe(false);
  }, 120_000);

  it('rejects the start when the database cannot open, and releases the lock', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'driftwatch-broken-'));
    try {
      // pgdata is a file: PGlite fails in the worker.
      writeFileSync(join(dir, 'pgdata'), 'not a directory');
      await expect(startEmbeddedServer(dir)).rejects.toThrow();
      expect(existsSync(join(dir, 'driftwatch.lock'))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
