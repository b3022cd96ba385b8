import { type DependencyFacts, FACT_GROUPS, type FactGroupName } from './definition';

/**
 * Which fact groups a condition reads, found in its syntax tree once per policy version
 * (docs/policies.md#evaluation). A violation stores only those groups of the facts: they are the
 * facts that made its condition true, a fraction of the whole document to write, and a violation
 * is rewritten only when they change (not when an unrelated fact of the dependency does).
 */

const GROUP_NAMES = Object.keys(FACT_GROUPS) as FactGroupName[];
const GROUPS = new Set<string>(GROUP_NAMES);

export interface FactReads {
  /** The groups read, in the definition's order (so a projection serialises the same way). */
  groups: readonly FactGroupName[];
  /** Whether the condition reads `release.ageDays` (or the whole group): it changes by the day. */
  timeDependent: boolean;
}

/** Everything: what a condition reads when its tree cannot be walked. */
export const READS_EVERYTHING: FactReads = { groups: GROUP_NAMES, timeDependent: true };

type Node = { op?: unknown; args?: unknown };

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && 'op' in value;
}

/**
 * Walks a cel-js syntax tree: every identifier naming a fact group is a read of that group
 * (a macro variable that shadows a group's name reads more than it needs: harmless). A selection
 * `release.<field>` tells whether the age is read; any other use of `release` counts as reading it.
 */
export function factReadsOf(ast: unknown): FactReads {
  const groups = new Set<string>();
  let timeDependent = false;
  const visit = (value: unknown, parent: Node | null): void => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item, parent);
      return;
    }
    if (!isNode(value)) return;
    if (value.op === 'id' && typeof value.args === 'string') {
      if (!GROUPS.has(value.args)) return;
      groups.add(value.args);
      if (value.args !== 'release') return;
      const selected = parent?.op === '.' && Array.isArray(parent.args) ? parent.args[1] : null;
      if (selected !== 'known') timeDependent = true;
      return;
    }
    visit(value.args, value);
  };
  visit(ast, null);
  return { groups: GROUP_NAMES.filter((name) => groups.has(name)), timeDependent };
}

/** The part of the facts a condition read (what its violation stores). */
export function projectFacts(facts: DependencyFacts, reads: FactReads): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const group of reads.groups) out[group] = facts[group];
  return out;
}

// Each group's JSON, once per dependency's facts: shared by the violations' digests and the
// evaluation state's digest.
const groupJsons = new WeakMap<object, string>();

/** The JSON of one fact group of a dependency (computed once). */
export function groupJson(facts: DependencyFacts, group: FactGroupName): string {
  const value = facts[group] as object;
  let json = groupJsons.get(value);
  if (json === undefined) {
    json = JSON.stringify(value);
    groupJsons.set(value, json);
  }
  return json;
}

/** `JSON.stringify(projectFacts(facts, reads))`, from the groups' cached JSON. */
export function projectedJson(facts: DependencyFacts, reads: FactReads): string {
  return `{${reads.groups.map((group) => `"${group}":${groupJson(facts, group)}`).join(',')}}`;
}

/**
 * A repository condition (docs/policies.md#repository-conditions): it reads the repository's
 * quantum facts, so it holds for the repository once, not per dependency (cel.ts refuses one that
 * also reads a dependency group).
 */
export function isRepositoryCondition(reads: FactReads): boolean {
  return reads.groups.includes('quantum');
}
