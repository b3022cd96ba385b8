import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../', import.meta.url));
const OWNER = 'domains/scans/store.ts';

/** Every non-test TypeScript file under src/. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

// Kysely writes and raw SQL writes of the two tables the scan store owns.
const WRITE = [
  /\b(?:updateTable|insertInto|deleteFrom|mergeInto|replaceInto)\(\s*['"`](scans|scan_logs)['"`]/,
  /\b(?:UPDATE|INSERT\s+INTO|DELETE\s+FROM)\s+(?:ONLY\s+)?"?(scans|scan_logs)"?\b/i,
];

function scanWrites(text: string): string[] {
  return text
    .split('\n')
    .map((line, index) => ({ line, index }))
    .filter(({ line }) => WRITE.some((pattern) => pattern.test(line)))
    .map(({ line, index }) => `${index + 1}: ${line.trim()}`);
}

describe('the scan store is the only writer of scans and scan_logs', () => {
  it('finds no write of either table outside src/domains/scans/store.ts', () => {
    const offenders = sources(SRC)
      .filter((path) => relative(SRC, path).split('\\').join('/') !== OWNER)
      .flatMap((path) =>
        scanWrites(readFileSync(path, 'utf8')).map((hit) => `${relative(SRC, path)}:${hit}`),
      );
    expect(offenders).toEqual([]);
  });

  it('the owner does write them (the patterns match real code)', () => {
    const owner = scanWrites(readFileSync(join(SRC, OWNER), 'utf8'));
    expect(owner.some((hit) => hit.includes("updateTable('scans')"))).toBe(true);
    expect(owner.some((hit) => hit.includes("insertInto('scans')"))).toBe(true);
    expect(owner.some((hit) => hit.includes("insertInto('scan_logs')"))).toBe(true);
  });

  it('catches the spellings a stray write would use', () => {
    expect(scanWrites("db.updateTable('scans').set({})")).toHaveLength(1);
    expect(scanWrites('db.insertInto("scan_logs")')).toHaveLength(1);
    expect(scanWrites("await sql`UPDATE scans SET state = 'failed'`")).toHaveLength(1);
    expect(scanWrites("db.selectFrom('scans')")).toHaveLength(0);
    expect(scanWrites("db.updateTable('scans_archive')")).toHaveLength(0);
  });
});
