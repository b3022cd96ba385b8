import { describe, expect, it } from 'vitest';
import { tableWrites, writesIn, writesOutside } from '../../../test/support/table-writes';

const OWNER = 'domains/scans/store.ts';
const TABLES = ['scans', 'scan_logs'];

describe('the scan store is the only writer of scans and scan_logs', () => {
  it('finds no write of either table outside src/domains/scans/store.ts', () => {
    expect(writesOutside(TABLES, [OWNER])).toEqual([]);
  });

  it('the owner does write them (the patterns match real code)', () => {
    const owner = writesIn(OWNER, TABLES);
    expect(owner.some((hit) => hit.includes("updateTable('scans')"))).toBe(true);
    expect(owner.some((hit) => hit.includes("insertInto('scans')"))).toBe(true);
    expect(owner.some((hit) => hit.includes("insertInto('scan_logs')"))).toBe(true);
  });

  it('catches the spellings a stray write would use', () => {
    expect(tableWrites("db.updateTable('scans').set({})", TABLES)).toHaveLength(1);
    expect(tableWrites('db.insertInto("scan_logs")', TABLES)).toHaveLength(1);
    expect(tableWrites("await sql`UPDATE scans SET state = 'failed'`", TABLES)).toHaveLength(1);
    expect(tableWrites("db.selectFrom('scans')", TABLES)).toHaveLength(0);
    expect(tableWrites("db.updateTable('scans_archive')", TABLES)).toHaveLength(0);
  });
});
