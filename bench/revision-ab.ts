/**
 * Same-process A/B of this tree against an older revision: the extractors on in-memory text (the
 * method of bench:extract) and the warm audit path (read, extract, match; bench:audit's "warm").
 * Both trees are loaded into one process and called alternately, so load from other work on the
 * machine hits both alike; the ratio after / before is the figure to read.
 *
 *   git archive <rev> | tar -x -C /tmp/before && ln -s "$PWD/node_modules" /tmp/before/node_modules
 *   BEFORE_TREE=/tmp/before npx tsx bench/revision-ab.ts
 *
 * ROUNDS (default 41) timed calls per side after 5 warm-up calls. Prints; writes nothing.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { sharedDataDir } from '../test/support/shared-data';
import { extractInputFor } from './extract-input';
import { median } from './report';

const ROUNDS = Number(process.env.ROUNDS ?? 41);
const WARMUP = 5;

/** The extraction corpus of bench:extract, the audit subjects of bench:audit. */
const EXTRACT_SUBJECTS = [
  'lockfiles/storage/package-lock.json',
  'lockfiles/BookStack/package-lock.json',
  'lockfiles/jest/yarn.lock',
  'lockfiles/webpack/yarn.lock',
  'lockfiles/prometheus/web/ui/react-app/pnpm-lock.yaml',
  'lockfiles/uv/Cargo.lock',
  'lockfiles/uv/uv.lock',
  'lockfiles/poetry/poetry.lock',
  'lockfiles/pipenv/Pipfile.lock',
  'lockfiles/dd-trace-java/dd-java-agent/instrumentation/mule-4.5/gradle.lockfile',
  'lockfiles/BookStack/composer.lock',
  'lockfiles/server/src/Api/packages.lock.json',
  'lockfiles/maybe/Gemfile.lock',
  'lockfiles/prometheus/go.mod',
];
const AUDIT_SUBJECTS = [
  'lockfiles/storage/package-lock.json',
  'lockfiles/BookStack/package-lock.json',
  'generated/express-app/package-lock.json',
  'generated/old-vulnerable-lockv2/package-lock.json',
];

// The shapes both revisions share; typed here because the older tree is loaded by path.
interface ExtractorLike {
  kind: string;
  matches(path: string): boolean;
  extract(input: ExtractInputLike): { dependencies: unknown[] };
}
interface ExtractInputLike {
  path: string;
  text: string;
  readFile(path: string): string | null;
}
interface Side {
  claim(path: string): ExtractorLike;
  audit(path: string): Promise<number>;
}

async function loadSide(root: string, osvFiles: string[]): Promise<Side> {
  // The ecosystem list moved from registry.ts to ecosystem-list.ts during issue 12.
  const list = await import(join(root, 'src/ecosystems/ecosystem-list.ts')).catch(
    () => import(join(root, 'src/ecosystems/registry.ts')),
  );
  const ecosystems: Array<{ extractors: ExtractorLike[] }> = list.ecosystems;
  const all = ecosystems.flatMap((e) => e.extractors);
  const claims = [
    ...all.filter((x) => x.kind === 'lockfile'),
    ...all.filter((x) => x.kind !== 'lockfile'),
  ];
  const { extractPath } = await import(join(root, 'src/ecosystems/extract-tree.ts'));
  const { auditExtraction, prepareAdvisories } = await import(join(root, 'src/intel/osv/audit.ts'));
  const { loadAdvisories } = await import(join(root, 'src/intel/osv/load.ts'));
  const prepared = prepareAdvisories((await loadAdvisories(osvFiles)).advisories);
  return {
    claim(path) {
      const found = claims.find((x) => x.matches(path));
      if (!found) throw new Error(`no extractor claims ${path}`);
      return found;
    },
    async audit(path) {
      return auditExtraction(await extractPath(path), prepared).findings.length;
    },
  };
}

/** Alternates the two calls (order swapped every round) and returns their median times. */
async function timeAlternately(
  before: () => unknown,
  after: () => unknown,
): Promise<[number, number]> {
  const times: [number[], number[]] = [[], []];
  for (let round = 0; round < WARMUP + ROUNDS; round++) {
    const order = round % 2 === 0 ? ([0, 1] as const) : ([1, 0] as const);
    for (const side of order) {
      const start = performance.now();
      await (side === 0 ? before() : after());
      if (round >= WARMUP) times[side].push(performance.now() - start);
    }
  }
  return [median(times[0]), median(times[1])];
}

function row(name: string, beforeMs: number, afterMs: number, note: string): string {
  return `| ${name} | ${beforeMs.toFixed(2)} | ${afterMs.toFixed(2)} | ${(afterMs / beforeMs).toFixed(2)} | ${note} |`;
}

async function main(): Promise<void> {
  const beforeTree = process.env.BEFORE_TREE;
  if (!sharedDataDir || !beforeTree) {
    console.log('revision-ab needs ../shared/data and BEFORE_TREE (see the header); skipped.');
    return;
  }
  const osvDir = join(sharedDataDir, 'osv');
  const osvFiles = readdirSync(osvDir)
    .filter((f) => f.endsWith('.jsonl'))
    .sort()
    .map((f) => join(osvDir, f));
  const before = await loadSide(resolve(beforeTree), osvFiles);
  const after = await loadSide(resolve('.'), osvFiles);
  console.log(`load average ${loadavg()[0]?.toFixed(2)} at start`);
  console.log('| file | before ms | after ms | after / before | dependencies before / after |');
  console.log('|---|---:|---:|---:|---|');
  for (const subject of EXTRACT_SUBJECTS) {
    const file = join(sharedDataDir, subject);
    const b = before.claim(basename(file));
    const a = after.claim(basename(file));
    const text = readFileSync(file, 'utf8');
    const ib = extractInputFor(dirname(file), basename(file), text);
    const ia = extractInputFor(dirname(file), basename(file), text);
    const counts = `${b.extract(ib).dependencies.length} / ${a.extract(ia).dependencies.length}`;
    const [bm, am] = await timeAlternately(
      () => b.extract(ib),
      () => a.extract(ia),
    );
    console.log(row(`extract ${subject}`, bm, am, counts));
  }
  for (const subject of AUDIT_SUBJECTS) {
    const file = join(sharedDataDir, subject);
    const counts = `${await before.audit(file)} / ${await after.audit(file)} findings`;
    const [bm, am] = await timeAlternately(
      () => before.audit(file),
      () => after.audit(file),
    );
    console.log(row(`warm audit ${subject}`, bm, am, counts));
  }
  console.log(`load average ${loadavg()[0]?.toFixed(2)} at end`);
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
