/**
 * `npm run bench:osv-import`: how fast the advisory store takes in the whole OSV database
 * (issue 19: at least 5,000 records/s on PostgreSQL and 2,000 on the embedded database for
 * 500,000 generated records with realistic shapes, ./osv-generator.ts), and the peak RSS while it
 * does. The generated records go through the import's own path (JSON Lines text → OSV parser →
 * `AdvisoryImporter`) in slices of 5,000 lines, as a zip export or a JSONL file is read. Then a
 * 5,000-dependency lookup against the loaded store (the scan's matching query), and the real
 * records of ../shared/data/osv (skipped with a message when absent).
 *
 * BENCH_OSV_RECORDS (default 500000) sets the generated count; the embedded database always, and
 * PostgreSQL too when TEST_DATABASE_URL names a server. Results go to docs/benchmarks.md, section
 * "OSV import (npm run bench:osv-import)".
 */
import { loadavg } from 'node:os';
import { join } from 'node:path';
import type { Database } from '../src/db/connection';
import { AdvisoryImporter, importPath } from '../src/intel/advisory-store/import';
import { loadIndex } from '../src/intel/advisory-store/lookup';
import { emptyReadResult, readRecordsFromText } from '../src/intel/advisory-store/read';
import { sharedDataDir } from '../test/support/shared-data';
import { openTestDatabase } from '../test/support/test-app';
import { osvLines, osvRecord } from './osv-generator';
import { writeBenchmarkSection } from './report';

const RECORDS = Number(process.env.BENCH_OSV_RECORDS ?? 500_000);
const SLICE = 5_000;
const LOOKUP_PACKAGES = 5_000;

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

async function importGenerated(database: Database): Promise<string[]> {
  const rss = rssSampler();
  const rssBefore = process.memoryUsage.rss();
  const importer = new AdvisoryImporter(database, noRematch);
  const start = performance.now();
  let lastReport = start;
  for (let from = 0; from < RECORDS; from += SLICE) {
    const read = emptyReadResult();
    readRecordsFromText(osvLines(from, Math.min(RECORDS, from + SLICE)), 'generated.jsonl', read);
    await importer.add(read);
    if (performance.now() - lastReport > 30_000) {
      lastReport = performance.now();
      const rate = (from + SLICE) / ((lastReport - start) / 1000);
      console.error(`  ${from + SLICE} records, ${rate.toFixed(0)}/s`);
    }
  }
  const summary = await importer.finish();
  const seconds = (performance.now() - start) / 1000;
  const peak = rss.stop();
  // Again: every record is already stored (the idempotent path an unchanged feed takes).
  const againStart = performance.now();
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
    `| generated records, first import | ${summary.read} | ${summary.added} added, ${summary.rejected} rejected, ${groups.n} vulnerabilities | ${seconds.toFixed(1)} | **${(summary.read / seconds).toFixed(0)}** | ${mib(peak)} (${mib(rssBefore)} before) |`,
    `| the first ${againSummary.read} again (all unchanged) | ${againSummary.read} | ${againSummary.unchanged} unchanged | ${againSeconds.toFixed(1)} | ${(againSummary.read / againSeconds).toFixed(0)} | |`,
  ];
}

/** The scan's lookup for 5,000 dependencies, most of them named by some advisory. */
async function lookup(database: Database): Promise<string> {
  const keys = new Map<string, { ecosystem: string; name: string }>();
  for (let i = 0; keys.size < LOOKUP_PACKAGES && i < RECORDS; i += 7) {
    const record = osvRecord(i);
    for (const affected of record.affected as { package: { ecosystem: string; name: string } }[]) {
      const key = `${affected.package.ecosystem}\u0000${affected.package.name}`;
      if (affected.package.ecosystem === 'npm' && !keys.has(key)) {
        keys.set(key, { ecosystem: 'npm', name: affected.package.name });
      }
    }
  }
  const start = performance.now();
  const { index } = await loadIndex(database.system, [...keys.values()]);
  const ms = performance.now() - start;
  return `| lookup of ${keys.size} npm packages (the scan's matching query) | ${keys.size} | ${index.size} advisories found | ${(ms / 1000).toFixed(2)} | | |`;
}

async function importShared(database: Database): Promise<string> {
  if (!sharedDataDir) return '| ../shared/data/osv | absent: skipped | | | | |';
  const rss = rssSampler();
  const start = performance.now();
  const summary = await importPath(database, join(sharedDataDir, 'osv'), noRematch);
  const seconds = (performance.now() - start) / 1000;
  return `| every file of ../shared/data/osv (real records) | ${summary.read} | ${summary.added} added, ${summary.rejected} rejected | ${seconds.toFixed(1)} | ${(summary.read / seconds).toFixed(0)} | ${mib(rss.stop())} |`;
}

async function measure(lines: string[]): Promise<void> {
  const database = await openTestDatabase();
  try {
    const title = database.engine === 'embedded' ? 'Embedded database (PGlite)' : 'PostgreSQL';
    console.error(`${title}: importing ${RECORDS} generated records`);
    lines.push(`### ${title}`, '');
    lines.push(
      '| what | records | outcome | seconds | records/s | peak RSS MiB |',
      '|---|---:|---|---:|---:|---:|',
    );
    lines.push(...(await importGenerated(database)));
    lines.push(await lookup(database));
    lines.push(await importShared(database));
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
      `Node ${process.version}, load average at start ${loadavg()[0]?.toFixed(2)}, measured ${new Date().toISOString().slice(0, 10)}.`,
    '',
  ];
  delete process.env.TEST_DATABASE_URL;
  if (process.env.BENCH_OSV_SKIP_EMBEDDED !== '1') await measure(lines);
  if (server) {
    process.env.TEST_DATABASE_URL = server;
    await measure(lines);
  }
  const body = lines.join('\n');
  console.log(body);
  if (process.env.BENCH_NO_WRITE !== '1')
    writeBenchmarkSection('OSV import (npm run bench:osv-import)', body);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
