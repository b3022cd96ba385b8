/**
 * `npm run bench:osv-import`: how fast the advisory store takes in the whole OSV database
 * (issue 19: at least 5,000 records/s on PostgreSQL and 2,000 on the embedded database for
 * 500,000 generated records with realistic shapes, ./osv-generator.ts), and the peak RSS while it
 * does. The generated records go through the import's own path (JSON Lines text → OSV parser →
 * `AdvisoryImporter`) in slices of 500 lines, as a zip export is read. Then a
 * 5,000-dependency lookup against the loaded store (the scan's matching query), and the real
 * records of ../shared/data/osv (skipped with a message when absent).
 *
 * BENCH_RECORDS (or BENCH_OSV_RECORDS; default 20000, so a plain run finishes in minutes; the
 * issue-19 figure is BENCH_RECORDS=500000) sets the generated count; the embedded database always
 * (on a temporary data directory, as the service runs it: an in-memory PGlite holds the whole
 * database in its 4 GiB WebAssembly memory), and PostgreSQL too when TEST_DATABASE_URL names a
 * server. BENCH_OSV_SKIP_EMBEDDED=1 / BENCH_OSV_SKIP_SHARED=1 leave a part out. Results go to
 * docs/benchmarks.md, section "OSV import (npm run bench:osv-import)".
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { type Database, openDatabase } from '../src/db/connection';
import { migrate } from '../src/db/migrate';
import type { Ecosystem } from '../src/ecosystems/types';
import { AdvisoryImporter, importPath } from '../src/intel/advisory-store/import';
import { loadIndex } from '../src/intel/advisory-store/lookup';
import { emptyReadResult, readRecordsFromText } from '../src/intel/advisory-store/read';
import { parseOsvRecord } from '../src/intel/osv/parse';
import { sharedDataDir } from '../test/support/shared-data';
import { closingAlso, openTestDatabase } from '../test/support/test-app';
import { osvLines, osvRecord } from './osv-generator';
import { writeBenchmarkSection } from './report';

const RECORDS = Number(process.env.BENCH_RECORDS ?? process.env.BENCH_OSV_RECORDS ?? 20_000);
/** As a zip export is read (zipRecordBatches yields 500 records at a time). */
const SLICE = 500;
const LOOKUP_DEPENDENCIES = 5_000;

/** Re-matching is the exposures domain's job; the bench measures the store alone. */
const noRematch = Object.assign(async () => 0, {});

/** Peak RSS sampled every 50 ms (the event loop is free between batches). */
function rssSampler(): { stop: () => number } {
  let peak = process.memoryUsage.rss();
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 50);
  return {
    stop: () => {
      clearInterval(timer);
      return Math.max(peak, process.memoryUsage.rss());
    },
  };
}

const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);

/**
 * CPU seconds spent so far by this process and, for a PostgreSQL server on this machine, by the
 * server processes serving the bench's database (read from /proc; null when not readable). On a
 * shared machine the wall time mostly measures the wait for a core; CPU time is the work.
 */
function cpuReader(
  database: Database,
  databaseName: string | null,
): () => { node: number; server: number | null } {
  const serverCpu = (): number | null => {
    if (database.engine !== 'postgres' || !databaseName) return null;
    let ticks = 0;
    let found = false;
    try {
      for (const pid of readdirSync('/proc')) {
        if (!/^\d+$/.test(pid)) continue;
        try {
          if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(databaseName)) continue;
          const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
          ticks += Number(fields[11]) + Number(fields[12]);
          found = true;
        } catch {
          // The process ended between the listing and the read.
        }
      }
    } catch {
      return null;
    }
    return found ? ticks / 100 : null;
  };
  return () => {
    const usage = process.cpuUsage();
    return { node: (usage.user + usage.system) / 1e6, server: serverCpu() };
  };
}

function cpuCell(
  before: { node: number; server: number | null },
  after: typeof before,
  records: number,
) {
  const node = after.node - before.node;
  if (before.server === null || after.server === null) {
    return `${node.toFixed(1)} | ${(records / node).toFixed(0)}`;
  }
  const server = after.server - before.server;
  return `${node.toFixed(1)} + ${server.toFixed(1)} | ${(records / (node + server)).toFixed(0)}`;
}

async function importGenerated(
  database: Database,
  cpu: ReturnType<typeof cpuReader>,
): Promise<string[]> {
  const rss = rssSampler();
  const rssBefore = process.memoryUsage.rss();
  const importer = new AdvisoryImporter(database, noRematch);
  const start = performance.now();
  const cpuStart = cpu();
  let lastReport = start;
  for (let from = 0; from < RECORDS; from += SLICE) {
    const read = emptyReadResult();
    readRecordsFromText(osvLines(from, Math.min(RECORDS, from + SLICE)), 'generated.jsonl', read);
    await importer.add(read);
    if (performance.now() - lastReport > 30_000) {
      lastReport = performance.now();
      const rate = (from + SLICE) / ((lastReport - start) / 1000);
      console.error(
        `  ${from + SLICE} records, ${rate.toFixed(0)}/s, load ${loadavg()[0]?.toFixed(1)}`,
      );
    }
  }
  const summary = await importer.finish();
  const seconds = (performance.now() - start) / 1000;
  const cpuEnd = cpu();
  const load = loadavg()[0]?.toFixed(1);
  const peak = rss.stop();
  // Again: every record is already stored (the idempotent path an unchanged feed takes).
  const againStart = performance.now();
  const againCpu = cpu();
  const again = new AdvisoryImporter(database, noRematch);
  for (let from = 0; from < Math.min(RECORDS, 50_000); from += SLICE) {
    const read = emptyReadResult();
    readRecordsFromText(osvLines(from, Math.min(RECORDS, from + SLICE)), 'generated.jsonl', read);
    await again.add(read);
  }
  const againSummary = await again.finish();
  const againSeconds = (performance.now() - againStart) / 1000;
  const groups = await database.system
    .selectFrom('vulnerabilities')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('merged_into', 'is', null)
    .executeTakeFirstOrThrow();
  return [
    `| generated records, first import | ${summary.read} | ${summary.added} added, ${summary.rejected} rejected, ${groups.n} vulnerabilities | ${seconds.toFixed(1)} | **${(summary.read / seconds).toFixed(0)}** | ${cpuCell(cpuStart, cpuEnd, summary.read)} | ${load} | ${mib(peak)} (${mib(rssBefore)} before) |`,
    `| the first ${againSummary.read} again (all unchanged) | ${againSummary.read} | ${againSummary.unchanged} unchanged | ${againSeconds.toFixed(1)} | ${(againSummary.read / againSeconds).toFixed(0)} | ${cpuCell(againCpu, cpu(), againSummary.read)} | ${loadavg()[0]?.toFixed(1)} | |`,
  ];
}

/**
 * A repository of 5,000 dependencies matched against the loaded store the way a scan does
 * (src/domains/exposures/matching/refresh.ts: one `loadIndex` for every package, then `match` per
 * dependency): four in five name a package some generated advisory names, across every
 * ecosystem, at an exact version; the rest are packages no advisory names.
 */
async function matchRepository(database: Database): Promise<string> {
  const dependencies = new Map<string, { ecosystem: Ecosystem; name: string; version: string }>();
  const stride = Math.max(1, Math.floor(RECORDS / LOOKUP_DEPENDENCIES));
  for (let i = 0; dependencies.size < (LOOKUP_DEPENDENCIES * 4) / 5 && i < RECORDS; i += stride) {
    const parsed = parseOsvRecord(osvRecord(i));
    if (!parsed.ok) continue;
    for (const affected of parsed.advisory.affected) {
      if (!affected.ecosystem) continue;
      const key = `${affected.ecosystem}\u0000${affected.name}`;
      dependencies.set(key, {
        ecosystem: affected.ecosystem,
        name: affected.name,
        version: `${i % 8}.${i % 13}.0`,
      });
    }
  }
  for (let n = 0; dependencies.size < LOOKUP_DEPENDENCIES; n++) {
    dependencies.set(`npm\u0000unadvised-${n}`, {
      ecosystem: 'npm',
      name: `unadvised-${n}`,
      version: '1.0.0',
    });
  }
  const start = performance.now();
  const { index } = await loadIndex(database.system, [...dependencies.values()]);
  const loaded = performance.now();
  let affected = 0;
  for (const dependency of dependencies.values()) {
    affected += index.match({ ...dependency, resolution: 'resolved' }).length;
  }
  const seconds = (performance.now() - start) / 1000;
  return `| a ${dependencies.size}-dependency repository matched (the scan's loadIndex + match) | ${dependencies.size} | ${index.size} advisories loaded in ${((loaded - start) / 1000).toFixed(2)} s, ${affected} matches | **${seconds.toFixed(2)}** | | | ${loadavg()[0]?.toFixed(1)} | |`;
}

async function importShared(database: Database): Promise<string> {
  if (!sharedDataDir) return '| ../shared/data/osv | absent: skipped | | | | | | | |';
  const rss = rssSampler();
  const start = performance.now();
  const summary = await importPath(database, join(sharedDataDir, 'osv'), noRematch);
  const seconds = (performance.now() - start) / 1000;
  return `| every file of ../shared/data/osv (real records) | ${summary.read} | ${summary.added} added, ${summary.rejected} rejected | ${seconds.toFixed(1)} | ${(summary.read / seconds).toFixed(0)} | | | ${loadavg()[0]?.toFixed(1)} | ${mib(rss.stop())} |`;
}

/** PostgreSQL: a scratch database; embedded: PGlite on a temporary data directory. */
async function openBenchDatabase(embedded: boolean): Promise<Database> {
  if (!embedded) return openTestDatabase();
  const dataDir = mkdtempSync(join(tmpdir(), 'dw-bench-osv-'));
  const database = await openDatabase({ url: null, dataDir, poolSize: 10 });
  await migrate(database.pool);
  return closingAlso(database, () => rmSync(dataDir, { recursive: true, force: true }));
}

async function measure(lines: string[], embedded: boolean): Promise<void> {
  const database = await openBenchDatabase(embedded);
  try {
    const title =
      database.engine === 'embedded' ? 'Embedded database (PGlite, on disk)' : 'PostgreSQL';
    console.error(`${title}: importing ${RECORDS} generated records`);
    const name = await sql<{ name: string }>`SELECT current_database() AS name`.execute(
      database.system,
    );
    const cpu = cpuReader(database, name.rows[0]?.name ?? null);
    lines.push(`### ${title}`, '');
    lines.push(
      '| what | records | outcome | seconds | records/s | CPU s (Node + server) | records per CPU-second | load average | peak RSS MiB |',
      '|---|---:|---|---:|---:|---:|---:|---:|---:|',
    );
    lines.push(...(await importGenerated(database, cpu)));
    lines.push(await matchRepository(database));
    if (process.env.BENCH_OSV_SKIP_SHARED !== '1') lines.push(await importShared(database));
    lines.push('');
  } finally {
    await database.close();
  }
}

async function main(): Promise<void> {
  const server = process.env.TEST_DATABASE_URL;
  const lines: string[] = [
    `${RECORDS} generated OSV records (bench/osv-generator.ts: eight ecosystems, a fifth of them ` +
      'republishing an earlier CVE under PYSEC/GO/RUSTSEC ids so alias groups form, 1% MAL- records, ' +
      'CVSS vectors, version lists, markdown details), read as JSON Lines through the OSV parser and ' +
      `imported in slices of ${SLICE} lines; re-matching of tenants is not part of it. ` +
      `Node ${process.version}, load average at start ${loadavg()[0]?.toFixed(2)} (the load column is the 1-minute average when the row finished), measured ${new Date().toISOString().slice(0, 16)} UTC.`,
    '',
  ];
  if (process.env.BENCH_OSV_SKIP_EMBEDDED !== '1') await measure(lines, true);
  if (server) await measure(lines, false);
  const body = lines.join('\n');
  console.log(body);
  if (process.env.BENCH_NO_WRITE !== '1')
    writeBenchmarkSection('OSV import (npm run bench:osv-import)', body);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
