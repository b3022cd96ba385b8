import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * The two test tiers (README "Tests"): files that need no database run once; files that open a
 * database (directly, through a test/support module, or by starting the service) run on the
 * embedded database and again on PostgreSQL. The tier follows from the code, so a new test file
 * needs no label; test/support/test-app.ts refuses to open a database in the no-database tier,
 * so a file this reads wrongly fails loudly instead of silently skipping PostgreSQL.
 */

export type TestTier = 'unit' | 'database';

/** What a file that uses a database says: the test app, a test database, the service process. */
const DATABASE_MARKERS =
  /\b(createTestApp|openTestDatabase|openDatabase|startServiceProcess|createScratchDatabase)\b|service-process'|TEST_DATABASE_URL/;

const TEST_ROOTS = ['src', 'test', 'cli', 'web'];
const TEST_FILE = /\.test\.ts$/;

function testFilesUnder(root: string, dir: string, found: string[]): void {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) testFilesUnder(root, path, found);
    else if (TEST_FILE.test(entry.name)) found.push(relative(root, path));
  }
}

/** Every test file below the project root, as paths relative to it, sorted. */
export function testFiles(root: string): string[] {
  const found: string[] = [];
  for (const top of TEST_ROOTS) testFilesUnder(root, join(root, top), found);
  return found.sort();
}

/** The .ts file a relative import names, when it is one of the project's test support files. */
function supportModule(from: string, specifier: string): string | null {
  const target = resolve(dirname(from), specifier);
  if (!target.includes(`${'/'}test${'/'}`)) return null;
  for (const candidate of [`${target}.ts`, join(target, 'index.ts')]) {
    // This file names the markers without using a database.
    if (candidate === import.meta.filename) return null;
    if (existsSync(candidate)) return candidate;
  }
  return null;
}

const IMPORT = /\bfrom '(\.[^']+)'/g;

/** Whether `file` or a test support module it imports (at any depth) uses a database. */
function usesDatabase(file: string, memo: Map<string, boolean>, visiting: Set<string>): boolean {
  const known = memo.get(file);
  if (known !== undefined) return known;
  if (visiting.has(file)) return false;
  visiting.add(file);
  const text = readFileSync(file, 'utf8');
  let result = DATABASE_MARKERS.test(text);
  for (const match of result ? [] : text.matchAll(IMPORT)) {
    const module = supportModule(file, match[1] ?? '');
    if (module && usesDatabase(module, memo, visiting)) {
      result = true;
      break;
    }
  }
  visiting.delete(file);
  memo.set(file, result);
  return result;
}

/** Every test file with its tier. */
export function testTiers(root: string): Record<TestTier, string[]> {
  const memo = new Map<string, boolean>();
  const tiers: Record<TestTier, string[]> = { unit: [], database: [] };
  for (const file of testFiles(root)) {
    const tier = usesDatabase(join(root, file), memo, new Set()) ? 'database' : 'unit';
    tiers[tier].push(file);
  }
  return tiers;
}

/** Set in the no-database tier's workers; test-app.ts refuses a database when it is. */
export const TEST_TIER_VARIABLE = 'DRIFTWATCH_TEST_TIER';

/**
 * The no-database tier runs once, on no engine: a file there that opens a database was
 * classified wrongly (test/support/test-tiers.ts) and would never run on PostgreSQL.
 */
export function refuseInUnitTier(what: string): void {
  if (process.env[TEST_TIER_VARIABLE] !== 'unit') return;
  throw new Error(
    `This test file ${what} but runs in the no-database tier: name what it uses ` +
      '(test/support/test-tiers.ts DATABASE_MARKERS) so it runs on both databases.',
  );
}
