/**
 * `npm run bench:lockfile-memory`: peak memory of extracting one large package-lock.json, read
 * whole (`JSON.parse`, what every lock below 4 MiB still gets) against entry by entry from the
 * text in memory (src/ecosystems/npm/package-lock-reader.ts) and streamed from disk in 1 MiB
 * pieces (what a scan does with every lock from 4 MiB on: the text is never held). Each
 * measurement runs in
 * a fresh child process (the scan's extraction worker runs the same code in a thread), which
 * reports its peak RSS (getrusage maxRSS), the heap in use after the extraction, the time and the
 * entries; both ways must give identical entries (compared by a digest). Generated locks of
 * LOCKFILE_MEMORY_MB (default 50) MB: v3 (the shape of bench/scan-load.ts) and v2 (the same
 * entries plus the v1-style `dependencies` copy npm 7-8 write). Section "Large lockfile memory".
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  extractPackageLock,
  extractPackageLockStream,
} from '../src/ecosystems/npm/extract-package-lock';
import { openFileText } from '../src/ecosystems/shared/file-text';
import type { ExtractionResult } from '../src/ecosystems/types';
import { writeBenchmarkSection } from './report';

const MB = Number(process.env.LOCKFILE_MEMORY_MB ?? 50);
/** The children's V8 heap cap: 4096 leaves garbage collection lazy; 512 is the scan worker's. */
const HEAP_MB = Number(process.env.LOCKFILE_MEMORY_HEAP_MB ?? 4096);

/** A lock of about `megabytes` MB; v2 adds the `dependencies` copy of every entry. */
function generate(megabytes: number, version: 2 | 3): { text: string; entries: number } {
  const packages: string[] = [
    '"":{"name":"big","version":"1.0.0","dependencies":{"pkg-0":"^1.0.0"}}',
  ];
  const copy: string[] = [];
  let size = 0;
  let count = 0;
  const target = (megabytes * 1024 * 1024) / (version === 2 ? 1.45 : 1);
  while (size < target) {
    const name = `pkg-${count.toString(36)}`;
    const next = `pkg-${(count + 1).toString(36)}`;
    const v = `1.${count % 100}.${count % 7}`;
    const entry = `"node_modules/${name}":{"version":"${v}","resolved":"https://registry.example/${name}/-/${name}-${v}.tgz","integrity":"sha512-${'A'.repeat(86)}==","license":"MIT","dependencies":{"${next}":"^1.0.0"}}`;
    packages.push(entry);
    if (version === 2) {
      copy.push(
        `"${name}":{"version":"${v}","resolved":"https://registry.example/${name}/-/${name}-${v}.tgz","integrity":"sha512-${'A'.repeat(86)}==","requires":{"${next}":"^1.0.0"}}`,
      );
    }
    size += entry.length;
    count++;
  }
  const dependencies = version === 2 ? `,"dependencies":{${copy.join(',')}}` : '';
  const text = `{"name":"big","version":"1.0.0","lockfileVersion":${version},"requires":true,"packages":{${packages.join(',')}}${dependencies}}`;
  return { text, entries: count };
}

interface Measured {
  maxRssMb: number;
  heapAfterMb: number;
  ms: number;
  entries: number;
  digest: string;
}

/** One way of reading; the streamed way never reads the file into one text. */
function extractOneWay(path: string, way: string): ExtractionResult {
  if (way === 'streamed') {
    const file = openFileText(path);
    try {
      const result = extractPackageLockStream({
        path: 'package-lock.json',
        text: file.next,
        readFile: () => null,
      });
      if (!result) throw new Error('the streamed reading handed the lock back');
      return result;
    } finally {
      file.close();
    }
  }
  const text = readFileSync(path, 'utf8');
  return extractPackageLock(
    { path: 'package-lock.json', text, readFile: () => null },
    way === 'whole' ? Number.POSITIVE_INFINITY : 0,
  );
}

/** In the child: extract the file one way and print what it cost (reading included). */
function child(path: string, way: string): void {
  const started = performance.now();
  const result = extractOneWay(path, way);
  const ms = performance.now() - started;
  const heapAfterMb = process.memoryUsage().heapUsed / 1024 / 1024;
  const digest = createHash('sha256').update(JSON.stringify(result)).digest('hex');
  const measured: Measured = {
    maxRssMb: process.resourceUsage().maxRSS / 1024,
    heapAfterMb,
    ms,
    entries: result.dependencies.length,
    digest,
  };
  console.log(JSON.stringify(measured));
}

function measure(path: string, way: string): Measured {
  const out = execFileSync(
    process.execPath,
    [
      '--import',
      'tsx',
      `--max-old-space-size=${HEAP_MB}`,
      new URL(import.meta.url).pathname,
      path,
      way,
    ],
    { encoding: 'utf8', maxBuffer: 1 << 20 },
  );
  return JSON.parse(out.trim().split('\n').at(-1) as string) as Measured;
}

function main(): void {
  const dir = mkdtempSync(join(tmpdir(), 'dw-lock-memory-'));
  const rows: string[] = [];
  try {
    for (const version of [3, 2] as const) {
      const { text, entries } = generate(MB, version);
      const path = join(dir, `v${version}.json`);
      writeFileSync(path, text);
      const whole = measure(path, 'whole');
      const incremental = measure(path, 'incremental');
      const streamed = measure(path, 'streamed');
      if (whole.digest !== incremental.digest || whole.digest !== streamed.digest) {
        throw new Error(`v${version}: results differ`);
      }
      const mib = (text.length / 1024 / 1024).toFixed(1);
      for (const [label, m] of [
        ['whole (JSON.parse)', whole],
        ['entry by entry, text in memory', incremental],
        ['streamed from disk, 1 MiB pieces', streamed],
      ] as const) {
        rows.push(
          `| v${version}, ${mib} MiB, ${entries} entries | ${label} | ${m.maxRssMb.toFixed(0)} | ${m.heapAfterMb.toFixed(0)} | ${(m.ms / 1000).toFixed(2)} |`,
        );
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const body = [
    `Generated package-lock.json files of about ${MB} MB, extracted in a fresh Node ${process.version} process each with a ${HEAP_MB} MiB heap limit (the scan's extraction worker runs the same code in a thread with a 512 MiB heap, SCAN_EXTRACTION_HEAP_MB); seconds include reading the file. Peak RSS includes Node itself (about 45 MiB) and, read whole or from memory, the file's bytes and text (about 2 x its size); streamed, only a 1 MiB piece is held. All ways gave identical results (same digest). Measured ${new Date().toISOString().slice(0, 10)} on the shared 2-core machine.`,
    '',
    '| lock | read | peak RSS MiB | heap after MiB | seconds |',
    '|---|---|---:|---:|---:|',
    ...rows,
  ].join('\n');
  console.log(body);
  if (process.env.BENCH_NO_WRITE !== '1') {
    writeBenchmarkSection('Large lockfile memory (npm run bench:lockfile-memory)', body);
  }
}

const [path, way] = process.argv.slice(2);
if (path && way) child(path, way);
else main();
