import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Who writes a table: the Kysely and raw SQL writes of named tables in the non-test TypeScript
 * files of src/, for the tests that hold a table to its one owner (a scan's lifecycle, an
 * exposure's status).
 */

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

/** Every non-test TypeScript file under `dir`. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** "line: text" for each line of `text` that writes one of `tables`. */
export function tableWrites(text: string, tables: readonly string[]): string[] {
  const names = tables.join('|');
  const patterns = [
    new RegExp(
      `\\b(?:updateTable|insertInto|deleteFrom|mergeInto|replaceInto)\\(\\s*['"\`](?:${names})(?: as \\w+)?['"\`]`,
    ),
    new RegExp(
      `\\b(?:UPDATE|INSERT\\s+INTO|DELETE\\s+FROM)\\s+(?:ONLY\\s+)?"?(?:${names})"?(?![\\w])`,
      'i',
    ),
  ];
  return text
    .split('\n')
    .map((line, index) => ({ line, index }))
    .filter(({ line }) => patterns.some((pattern) => pattern.test(line)))
    .map(({ line, index }) => `${index + 1}: ${line.trim()}`);
}

/** "path:line: text" for each write of `tables` in src/ outside the `owners` (paths under src/). */
export function writesOutside(tables: readonly string[], owners: readonly string[]): string[] {
  return sources(SRC)
    .map((path) => ({ path, name: relative(SRC, path).split('\\').join('/') }))
    .filter(({ name }) => !owners.some((owner) => name === owner || name.startsWith(owner)))
    .flatMap(({ path, name }) =>
      tableWrites(readFileSync(path, 'utf8'), tables).map((hit) => `${name}:${hit}`),
    );
}

/** The writes of `tables` in one file under src/. */
export function writesIn(file: string, tables: readonly string[]): string[] {
  return tableWrites(readFileSync(join(SRC, file), 'utf8'), tables);
}
