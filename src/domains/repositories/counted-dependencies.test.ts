import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../../test/support/test-app';
import type { Database } from '../../db/connection';
import { isDependency } from '../../ecosystems/dependency-list';
import type { DependencyScope, DependencySource } from '../../ecosystems/types';
import { COUNTED_DEPENDENCY_SQL } from './counted-dependencies';

/**
 * The SQL spelling of `isDependency` must count exactly the rows the rule counts: each case is
 * one stored row's scope and source, run through the fragment over a row of the same columns.
 */
const CASES: [string, DependencyScope, DependencySource][] = [
  ['a registry dependency', 'runtime', { kind: 'registry' }],
  ['a development dependency', 'development', { kind: 'registry' }],
  ['a git dependency', 'runtime', { kind: 'git', url: 'https://git.example.test/a', ref: null }],
  ['a path dependency', 'runtime', { kind: 'path', path: '../lib' }],
  ["the project's own package", 'self', { kind: 'path', path: '.' }],
  ['a Go module replaced by a module', 'runtime', { kind: 'replaced', by: 'b', version: 'v1.0.0' }],
  [
    'a Go module replaced by a directory',
    'runtime',
    { kind: 'replaced', by: '../b', version: null },
  ],
];

describe('COUNTED_DEPENDENCY_SQL', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase(1);
  });
  afterAll(async () => database?.close());

  for (const [label, scope, source] of CASES) {
    it(`${label}: counted ${isDependency({ scope, source })}`, async () => {
      const { rows } = await sql<{ counted: boolean }>`
        SELECT (${sql.raw(COUNTED_DEPENDENCY_SQL)}) AS counted
          FROM (SELECT ${scope}::text AS scope, ${JSON.stringify(source)}::jsonb AS source)
            AS repository_dependencies`.execute(database.system);
      expect(rows[0]?.counted).toBe(isDependency({ scope, source }));
    });
  }

  it('the cases cover both answers', () => {
    const answers = new Set(CASES.map(([, scope, source]) => isDependency({ scope, source })));
    expect(answers).toEqual(new Set([true, false]));
  });
});
