/**
 * `npx tsx bench/scan-load.ts`: a scan of a repository with a generated package-lock.json of
 * SCAN_LOAD_LOCKFILE_MB (default 50) MB and a binary file named like a lockfile, while two loops
 * call GET /api/v1/repositories over real HTTP (127.0.0.1). Prints API p50/p99/max, the scan's
 * duration and outcome, and the process RSS before and at peak; exits 1 when the scan does not
 * complete with the binary file's per-file error, p99 is 200 ms or more, or the RSS grew by more
 * than the documented bound of a scan (RSS_GROWTH_BOUND_MB). The embedded database
 * by default; PostgreSQL with TEST_DATABASE_URL (a scratch database is created and dropped).
 * Figures: docs/benchmarks.md, section "Scan under load".
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config';
import { type RunningService, startService } from '../src/service';
import {
  createGitRepository,
  type GitFixture,
  TEST_REPOSITORY_ROOT,
} from '../test/support/git-fixtures';
import {
  apiClient,
  prepareServiceDatabase,
  type ServiceDatabase,
  sleep,
  waitForScan,
} from '../test/support/service-process';

const serverUrl = process.env.TEST_DATABASE_URL;
const engine = serverUrl ? 'PostgreSQL' : 'embedded';
const LOCKFILE_MB = Number(process.env.SCAN_LOAD_LOCKFILE_MB ?? 50);
/**
 * What one scan may add to the process (docs/benchmarks.md, "Scan under load"): the extraction
 * worker's heap (512 MiB), its thread (about 100 MB), the parent's entries and one chunk, about
 * 0.75 GB for the largest file read. MB of 10^6 bytes, as printed.
 */
const RSS_GROWTH_BOUND_MB = 750;

/** A generated package-lock.json (v3) of about `megabytes` MB, written straight to `path`. */
function writeBigLockfile(path: string, megabytes: number): number {
  const parts: string[] = ['{"name":"big","lockfileVersion":3,"packages":{"":{"name":"big"}'];
  let size = parts[0]?.length ?? 0;
  let count = 0;
  while (size < megabytes * 1024 * 1024) {
    const name = `pkg-${count.toString(36)}`;
    const entry = `,"node_modules/${name}":{"version":"1.${count % 100}.${count % 7}","license":"MIT","integrity":"sha512-${'A'.repeat(86)}==","dependencies":{"pkg-${(count + 1).toString(36)}":"^1.0.0"}}`;
    parts.push(entry);
    size += entry.length;
    count++;
  }
  parts.push('}}');
  writeFileSync(path, parts.join(''));
  return count;
}

async function main(): Promise<number> {
  let service: RunningService | undefined;
  let dataDir = '';
  let repo: GitFixture | undefined;
  let token: string;
  let entries: number;
  let database: ServiceDatabase | undefined;
  try {
    dataDir = mkdtempSync(join(tmpdir(), 'driftwatch-load-'));
    repo = createGitRepository({ 'requirements.txt': 'requests==2.31.0\n' });
    entries = writeBigLockfile(join(repo.directory, 'package-lock.json'), LOCKFILE_MB);
    mkdirSync(join(repo.directory, 'assets'));
    writeFileSync(join(repo.directory, 'assets', 'package-lock.json'), randomBytes(65536));
    repo.commit({}, 'big lockfile and a binary one');
    database = await prepareServiceDatabase(serverUrl, 'Load');
    const config = loadConfig({
      DATA_DIR: dataDir,
      ...database.env,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      SCAN_ALLOW_FILE_URLS: 'true',
      SCAN_FILE_URL_ROOTS: TEST_REPOSITORY_ROOT,
      RATE_LIMIT_TENANT_PER_MINUTE: '1000000',
      RATE_LIMIT_TOKEN_PER_MINUTE: '1000000',
      RATE_LIMIT_IP_PER_MINUTE: '1000000',
    });
    service = await startService(config, 'all');
    token = (database.token ?? service.bootstrap?.ownerToken) as string;
    const base = service.address as string;
    const call = apiClient(base, token);
    const imported = await call('POST', '/api/v1/repositories/import', {
      repositories: [{ url: repo?.url }],
    });
    const repositoryId = imported.body.items[0].repositoryId;
    const rssBefore = process.memoryUsage().rss;
    const queued = await call('POST', `/api/v1/repositories/${repositoryId}/scan`);
    if (queued.status !== 202) throw new Error(`scan not queued: ${queued.status}`);

    let done = false;
    let peakRss = rssBefore;
    const latencies: number[] = [];
    const loop = async () => {
      for (let i = 0; i < 20_000 && !done; i++) {
        const started = performance.now();
        const response = await fetch(`${base}/api/v1/repositories`, {
          headers: { authorization: `Bearer ${token}` },
        });
        await response.arrayBuffer();
        latencies.push(performance.now() - started);
        peakRss = Math.max(peakRss, process.memoryUsage().rss);
        await sleep(10);
      }
    };
    const load = Promise.all([loop(), loop()]);
    const started = Date.now();
    const scan = await waitForScan(call, queued.body.scanId, 170_000);
    done = true;
    await load;
    latencies.sort((a, b) => a - b);
    const p99 = latencies[Math.floor(latencies.length * 0.99)] ?? 0;
    const logs = await call('GET', `/api/v1/scans/${scan.scanId}/logs?take=100`);
    console.log(
      `${engine}: ${entries} entries, scan ${scan.state} in ${Date.now() - started} ms, ` +
        `${latencies.length} requests, p50 ${latencies[Math.floor(latencies.length / 2)]?.toFixed(1)} ms, ` +
        `p99 ${p99.toFixed(1)} ms, max ${latencies.at(-1)?.toFixed(1)} ms, ` +
        `RSS ${(rssBefore / 1e6).toFixed(0)} → peak ${(peakRss / 1e6).toFixed(0)} MB`,
    );
    const binaryReported = (logs.body.items ?? []).some((line: { message: string }) =>
      line.message.startsWith(
        'assets/package-lock.json: 1 errors, no entries read; first: binary file',
      ),
    );
    const growthMb = (peakRss - rssBefore) / 1e6;
    const withinBound = growthMb <= RSS_GROWTH_BOUND_MB;
    if (scan.state !== 'completed' || !binaryReported || p99 >= 200 || !withinBound) {
      console.log(
        `FAILED: state ${scan.state}${scan.error ? ` (${scan.error})` : ''}, binary file reported ${binaryReported}, p99 ${p99.toFixed(1)} ms, ` +
          `RSS growth ${growthMb.toFixed(0)} MB (bound ${RSS_GROWTH_BOUND_MB} MB)`,
      );
      return 1;
    }
    return 0;
  } finally {
    await service?.stop();
    repo?.remove();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    await database?.remove();
  }
}

main().then((code) => {
  process.exitCode = code;
});
