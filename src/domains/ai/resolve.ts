import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/schema';
import { cite } from './citations';
import type { Clarification } from './intent';
import type { PackageMention } from './parse/packages';

/**
 * Names in a question become records here, always among the tenant's own rows (its
 * dependencies and watches, its repositories; row-level security limits every read): a package
 * name another tenant uses, or that is only in the shared catalogue, is never offered.
 */

export interface ResolvedPackage {
  packageId: string;
  ecosystem: string;
  name: string;
}

export type Resolution<T> =
  | { kind: 'found'; value: T }
  | { kind: 'none' }
  | { kind: 'clarification'; clarification: Clarification };

export async function resolvePackage(
  db: Kysely<DB>,
  mention: { name: string; ecosystem: string | null },
  /** How to ask again with a chosen package (`pkg:npm/name`). */
  rephrase: (purlName: string) => string,
): Promise<Resolution<ResolvedPackage>> {
  const wanted = mention.name.toLowerCase();
  const rows = await db
    .selectFrom('packages as p')
    .select(['p.id', 'p.ecosystem', 'p.name', 'p.purl'])
    .where(sql<boolean>`lower(p.name) = ${wanted}`)
    .$if(mention.ecosystem !== null, (q) => q.where('p.ecosystem', '=', mention.ecosystem ?? ''))
    .where((eb) =>
      eb.or([
        eb.exists(
          eb
            .selectFrom('repository_dependencies as d')
            .select('d.package_id')
            .whereRef('d.package_id', '=', 'p.id'),
        ),
        eb.exists(
          eb
            .selectFrom('package_watches as w')
            .select('w.package_id')
            .whereRef('w.package_id', '=', 'p.id'),
        ),
      ]),
    )
    .orderBy('p.ecosystem')
    .limit(20)
    .execute();
  const [first] = rows;
  if (!first) return { kind: 'none' };
  if (rows.length === 1) {
    return {
      kind: 'found',
      value: { packageId: first.id, ecosystem: first.ecosystem, name: first.name },
    };
  }
  return {
    kind: 'clarification',
    clarification: {
      kind: 'clarification',
      answer: `"${mention.name}" is ${rows.length} packages in your repositories (${rows
        .map((r) => r.ecosystem)
        .join(', ')}). Which one do you mean?`,
      choices: rows.map((r) => ({
        label: `${r.name} (${r.ecosystem})`,
        question: rephrase(r.purl),
      })),
      citations: rows.map((r) => cite.package(r.id)),
    },
  };
}

export interface ResolvedRepository {
  repositoryId: string;
  fullName: string;
}

export async function resolveRepository(
  db: Kysely<DB>,
  name: string,
  rephrase: (fullName: string) => string,
): Promise<Resolution<ResolvedRepository>> {
  const wanted = name.toLowerCase();
  const exact = await db
    .selectFrom('repositories')
    .select(['id', 'full_name'])
    .where((eb) =>
      eb.or([
        eb(sql<string>`lower(name)`, '=', wanted),
        eb(sql<string>`lower(full_name)`, '=', wanted),
      ]),
    )
    .orderBy('full_name')
    .limit(10)
    .execute();
  const rows =
    exact.length > 0
      ? exact
      : await db
          .selectFrom('repositories')
          .select(['id', 'full_name'])
          .where(sql<boolean>`strpos(lower(full_name), ${wanted}) > 0`)
          .orderBy('full_name')
          .limit(10)
          .execute();
  const [first] = rows;
  if (!first) return { kind: 'none' };
  if (rows.length === 1) {
    return { kind: 'found', value: { repositoryId: first.id, fullName: first.full_name } };
  }
  return {
    kind: 'clarification',
    clarification: {
      kind: 'clarification',
      answer: `"${name}" matches ${rows.length} repositories. Which one do you mean?`,
      choices: rows.map((r) => ({ label: r.full_name, question: rephrase(r.full_name) })),
      citations: rows.map((r) => cite.repository(r.id)),
    },
  };
}

export function purlOf(mention: PackageMention): string | null {
  return mention.ecosystem ? `${mention.ecosystem}:${mention.name}` : null;
}

/** "a, b and c" */
export function listed(items: readonly string[], max = 5): string {
  const shown = items.slice(0, max);
  const rest = items.length - shown.length;
  if (rest > 0) return `${shown.join(', ')} and ${rest} more`;
  if (shown.length <= 1) return shown.join('');
  return `${shown.slice(0, -1).join(', ')} and ${shown[shown.length - 1]}`;
}

export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
