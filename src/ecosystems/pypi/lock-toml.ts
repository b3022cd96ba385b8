import { lineCounter } from '../shared/text-lines';
import { parseToml, type TomlTable } from '../shared/toml';
import type { ExtractionError } from '../types';
import { isTable } from './common';
import { indexTomlLines } from './toml-lines';

/**
 * The `[[package]]` entries of a TOML lockfile (poetry.lock, uv.lock) with the line of each
 * header. When the document does not parse (truncated, hand-edited), one whole-file error is
 * reported and each `[[package]]` section is parsed on its own, so the intact entries survive.
 */
export interface LockPackages {
  /** The parsed document, or the parsable part before the first `[[package]]` when salvaging. */
  doc: TomlTable;
  packages: Array<{ table: TomlTable; line: number | null }>;
  error: ExtractionError | null;
}

const PACKAGE_HEADER = /^\s*\[\[\s*package\s*\]\]\s*(?:#.*)?$/;

export function readLockPackages(text: string, what: string): LockPackages {
  const parsed = parseToml(text, what);
  if (parsed.ok) {
    const list = Array.isArray(parsed.value.package) ? parsed.value.package : [];
    let headerLines: readonly number[] = quickHeaderLines(text);
    if (headerLines.length !== list.length) {
      // Something unusual (a header-like line inside a multi-line string): scan properly.
      headerLines = indexTomlLines(text, { strings: false }).arrayHeaderLines('package');
    }
    const aligned = headerLines.length === list.length;
    const packages: LockPackages['packages'] = [];
    list.forEach((table, i) => {
      if (isTable(table)) packages.push({ table, line: aligned ? headerLines[i]! : null });
    });
    return { doc: parsed.value, packages, error: null };
  }
  return salvage(text, what, parsed.error);
}

/** Lockfile writers put each header on its own line: one regex pass finds them all. */
function quickHeaderLines(text: string): number[] {
  const lineOf = lineCounter(text);
  const out: number[] = [];
  const header = /^[ \t]*\[\[[ \t]*package[ \t]*\]\][ \t]*\r?$/gm;
  for (let m = header.exec(text); m !== null; m = header.exec(text)) out.push(lineOf(m.index));
  return out;
}

function salvage(text: string, what: string, error: ExtractionError): LockPackages {
  const lines = text.split('\n');
  const starts: number[] = [];
  for (let i = 0; i < lines.length; i++) if (PACKAGE_HEADER.test(lines[i]!)) starts.push(i);
  const preamble = parseToml(lines.slice(0, starts[0] ?? lines.length).join('\n'), what);
  const packages: LockPackages['packages'] = [];
  for (let s = 0; s < starts.length; s++) {
    const chunk = lines.slice(starts[s], starts[s + 1] ?? lines.length).join('\n');
    const piece = parseToml(chunk, what);
    if (!piece.ok || !Array.isArray(piece.value.package)) continue;
    const table = piece.value.package[0];
    if (isTable(table)) packages.push({ table, line: starts[s]! + 1 });
  }
  return { doc: preamble.ok ? preamble.value : {}, packages, error };
}
