import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { refuseInUnitTier, TEST_TIER_VARIABLE, testTiers } from '../support/test-tiers';

const root = mkdtempSync(join(tmpdir(), 'driftwatch-tiers-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

// Spelled in pieces: this file itself opens no database and stays in the no-database tier.
const APP = ['create', 'TestApp'].join('');
const URL_VARIABLE = ['TEST', 'DATABASE', 'URL'].join('_');
/** An import line, built so that this file's own text imports nothing it names. */
const importing = (name: string, path: string) => `import { ${name} } ${'from'} '${path}';\n`;

function write(path: string, text: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}

describe('test tiers', () => {
  test('a file that opens a database, directly or through a support module at any depth, is in the database tier', () => {
    write('test/support/test-app.ts', `export function ${APP}() {}\n`);
    write('test/support/builders.ts', importing(APP, './test-app'));
    write('test/support/scenarios.ts', importing('build', './builders'));
    write('test/support/pure.ts', 'export const x = 1;\n');
    write('src/a/direct.test.ts', importing(APP, '../../test/support/test-app'));
    write('src/a/deep.test.ts', importing('s', '../../test/support/scenarios'));
    write('src/a/postgres-only.test.ts', `const on = process.env.${URL_VARIABLE};\n`);
    write('src/a/pure.test.ts', importing('x', '../../test/support/pure'));
    write('cli/b/parse.test.ts', importing('y', './parse'));
    expect(testTiers(root)).toEqual({
      unit: ['cli/b/parse.test.ts', 'src/a/pure.test.ts'],
      database: ['src/a/deep.test.ts', 'src/a/direct.test.ts', 'src/a/postgres-only.test.ts'],
    });
  });

  test("the project's own files: the test app's users run on both databases, extractors once", () => {
    const tiers = testTiers(join(import.meta.dirname, '..', '..'));
    expect(tiers.database).toContain('src/domains/webhooks/webhooks.test.ts');
    expect(tiers.database).toContain('test/e2e/readme-walkthrough.test.ts');
    expect(tiers.unit).toContain('src/ecosystems/npm/extract-package-lock.test.ts');
    expect(tiers.unit).toContain('test/structure/test-tiers.test.ts');
  });

  test('opening a database in the no-database tier fails loudly', () => {
    const before = process.env[TEST_TIER_VARIABLE];
    try {
      process.env[TEST_TIER_VARIABLE] = 'unit';
      expect(() => refuseInUnitTier('opened a test database')).toThrow(/no-database tier/);
      process.env[TEST_TIER_VARIABLE] = '';
      expect(() => refuseInUnitTier('opened a test database')).not.toThrow();
    } finally {
      if (before === undefined) delete process.env[TEST_TIER_VARIABLE];
      else process.env[TEST_TIER_VARIABLE] = before;
    }
  });
});
