import type { DependencyScope } from '../types';
import { isRecord } from './common';

/** What the package-lock.json readers (v1 tree, v2/v3 packages) share. */
export type Json = Record<string, unknown>;

/** Joins the names of a key path (v1 `a > b`, or a section and a key) into one map key. */
export const CHAIN = '\u0000';

export function flagScope(entry: Json): DependencyScope {
  if (entry.dev === true || entry.devOptional === true) return 'development';
  if (entry.optional === true) return 'optional';
  return 'runtime';
}

export const RUNTIME_FIELDS = ['dependencies', 'optionalDependencies', 'peerDependencies'] as const;
export const PROJECT_FIELDS = [...RUNTIME_FIELDS, 'devDependencies'] as const;

/** Names an entry depends on; a project (root/workspace folder) also counts devDependencies. */
export function depNames(entry: Json, project: boolean): string[] {
  let names: string[] = [];
  for (const field of project ? PROJECT_FIELDS : RUNTIME_FIELDS) {
    const map = entry[field];
    if (isRecord(map))
      names = names.length === 0 ? Object.keys(map) : names.concat(Object.keys(map));
  }
  return names;
}

export function linesOf(records: readonly { id: string; line: number }[]): Map<string, number> {
  const map = new Map<string, number>();
  // The first occurrence wins, as the first key is where a reader would look.
  for (const record of records) if (!map.has(record.id)) map.set(record.id, record.line);
  return map;
}
