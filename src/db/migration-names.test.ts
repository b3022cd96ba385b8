import { describe, expect, test } from 'vitest';
import { listMigrations, migrationNumberProblems } from './migrate';

describe('migration names', () => {
  test('numbers are unique and increasing, apart from the duplicates that already shipped', () => {
    expect(migrationNumberProblems(listMigrations())).toEqual([]);
  });

  test('a new repeated number is a problem; a gap is not', () => {
    expect(
      migrationNumberProblems([
        '0001_a.sql',
        '0016_b.sql',
        '0016_c.sql',
        '0040_d.sql',
        '0040_e.sql',
      ]),
    ).toEqual(['0040_e.sql repeats the number of 0040_d.sql']);
  });
});
