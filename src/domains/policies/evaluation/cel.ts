import { Environment } from '@marcbachmann/cel-js';
import spdxSatisfies from 'spdx-satisfies';
import {
  type CelFieldType,
  type DependencyFacts,
  FACT_FUNCTIONS,
  FACT_GROUPS,
  FACT_OBJECT_TYPES,
  REPOSITORY_GROUPS,
} from '../facts/definition';
import { type FactReads, factReadsOf } from '../facts/reads';

/**
 * Policy conditions in CEL (docs/decisions/0006-cel-implementation.md: @marcbachmann/cel-js).
 * The environment is declared from the facts definition, so a misspelt field is refused when the
 * policy is saved, with its position. A condition is compiled once per policy version.
 */

type Program = ReturnType<Environment['parse']>;

export interface CompiledCondition {
  /** True when the condition holds for these facts; an evaluation error counts as false. */
  holds: (facts: DependencyFacts) => boolean;
  /** The fact groups it reads (what a violation stores). */
  reads: FactReads;
}

export type CompileResult =
  | { ok: true; condition: CompiledCondition }
  | { ok: false; errors: string[] };

export const MAX_CONDITION_LENGTH = 4000;

function satisfiesAllowList(expression: string, allowed: readonly string[]): boolean {
  if (!expression || allowed.length === 0) return false;
  try {
    return spdxSatisfies(expression, allowed);
  } catch {
    // Not a valid SPDX expression (or an allow-list entry is not an identifier): not satisfied.
    return false;
  }
}

const HANDLERS: Record<string, (...args: never[]) => unknown> = {
  spdxSatisfies: (expression: string, allowed: readonly string[]) =>
    satisfiesAllowList(expression, allowed),
};

function schemaOf(fields: Readonly<Record<string, { type: CelFieldType }>>) {
  return Object.fromEntries(Object.entries(fields).map(([name, field]) => [name, field.type]));
}

function buildEnvironment(): Environment {
  let env = new Environment({ limits: { maxAstNodes: 2000, maxDepth: 60 } });
  for (const [type, { fields }] of Object.entries(FACT_OBJECT_TYPES)) {
    env = env.registerType(type, { fields: schemaOf(fields) });
  }
  for (const [name, group] of Object.entries(FACT_GROUPS)) {
    env = env.registerVariable({ name, schema: schemaOf(group.fields) });
  }
  for (const fn of FACT_FUNCTIONS) {
    const name = fn.signature.slice(0, fn.signature.indexOf('('));
    const handler = HANDLERS[name];
    if (!handler) throw new Error(`no handler for CEL function ${name}`);
    env = env.registerFunction(fn.signature, handler);
  }
  return env;
}

let environment: Environment | undefined;
const celEnvironment = () => {
  environment ??= buildEnvironment();
  return environment;
};

/** "line 1, column 12: No such key: nme" from the library's error (offset in `node.pos`). */
function describeError(text: string, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const first = message.split('\n')[0] ?? message;
  const node =
    typeof error === 'object' && error !== null && 'node' in error ? error.node : undefined;
  const pos =
    typeof node === 'object' && node !== null && 'pos' in node && typeof node.pos === 'number'
      ? node.pos
      : undefined;
  if (pos === undefined) return first;
  const before = text.slice(0, pos);
  const line = before.split('\n').length;
  const column = pos - before.lastIndexOf('\n');
  return `line ${line}, column ${column}: ${first}`;
}

// Integer fields are CEL `int`: the library wants bigints for them.
const intFieldsOf = (fields: Readonly<Record<string, { type: CelFieldType }>>) =>
  Object.entries(fields)
    .filter(([, field]) => field.type === 'int')
    .map(([name]) => name);

const INT_FIELDS = Object.fromEntries(
  Object.entries(FACT_GROUPS).map(([group, { fields }]) => [group, intFieldsOf(fields)]),
);

// Lists of objects with integer fields (the quantum inventory's): each item converted too.
const INT_ITEM_FIELDS: Record<string, Record<string, string[]>> = {};
for (const [group, { fields }] of Object.entries(FACT_GROUPS)) {
  for (const [name, field] of Object.entries<{ type: CelFieldType }>(fields)) {
    const itemType = /^list<(\w+)>$/.exec(field.type)?.[1] as keyof typeof FACT_OBJECT_TYPES;
    const ints =
      itemType && FACT_OBJECT_TYPES[itemType]
        ? intFieldsOf(FACT_OBJECT_TYPES[itemType].fields)
        : [];
    if (ints.length === 0) continue;
    INT_ITEM_FIELDS[group] = { ...INT_ITEM_FIELDS[group], [name]: ints };
  }
}

function withBigInts(values: Record<string, unknown>, names: readonly string[]) {
  const copy: Record<string, unknown> = { ...values };
  for (const name of names) copy[name] = BigInt(Math.trunc(Number(copy[name] ?? 0)));
  return copy;
}

// One input per dependency, shared by every policy evaluated on it (not one per evaluation).
const inputs = new WeakMap<DependencyFacts, Record<string, Record<string, unknown>>>();

function toCelInput(facts: DependencyFacts): Record<string, Record<string, unknown>> {
  const cached = inputs.get(facts);
  if (cached) return cached;
  const input: Record<string, Record<string, unknown>> = {};
  for (const [group, values] of Object.entries(facts)) {
    const ints = INT_FIELDS[group] ?? [];
    const itemInts = INT_ITEM_FIELDS[group];
    // Groups without integers go as they are (CEL does not change its input).
    if (ints.length === 0 && !itemInts) {
      input[group] = values;
      continue;
    }
    const copy = withBigInts(values, ints);
    for (const [list, names] of Object.entries(itemInts ?? {})) {
      const items = copy[list];
      if (Array.isArray(items)) copy[list] = items.map((item) => withBigInts(item, names));
    }
    input[group] = copy;
  }
  inputs.set(facts, input);
  return input;
}

/** Parses and type-checks a condition; errors name the position (line, column). */
export function compileCondition(text: string): CompileResult {
  if (text.trim() === '') return { ok: false, errors: ['must not be empty'] };
  if (text.length > MAX_CONDITION_LENGTH) {
    return { ok: false, errors: [`must be at most ${MAX_CONDITION_LENGTH} characters`] };
  }
  const env = celEnvironment();
  let program: Program;
  try {
    const checked = env.check(text);
    if (!checked.valid) return { ok: false, errors: [describeError(text, checked.error)] };
    if (checked.type !== 'bool') {
      return { ok: false, errors: [`must be a bool expression, not ${checked.type}`] };
    }
    program = env.parse(text);
  } catch (error) {
    return { ok: false, errors: [describeError(text, error)] };
  }
  const reads = factReadsOf(program.ast);
  const mixed = reads.groups.filter((group) => !REPOSITORY_GROUPS.includes(group));
  if (reads.groups.includes('quantum') && mixed.length > 0) {
    return {
      ok: false,
      errors: [
        `a condition on quantum facts is a repository condition: it may read quantum and repository, not ${mixed.join(', ')}`,
      ],
    };
  }
  return {
    ok: true,
    condition: {
      reads,
      holds: (facts) => {
        try {
          return program(toCelInput(facts)) === true;
        } catch {
          return false;
        }
      },
    },
  };
}

const cache = new Map<string, CompiledCondition>();
const CACHE_LIMIT = 5000;

/**
 * The compiled condition of one policy version: compiled once, then cached by (id, version).
 * A stored condition that no longer compiles (the facts changed under it) holds for nothing.
 */
export function conditionOf(policy: { id: string; version: number; condition: string }) {
  const key = `${policy.id}:${policy.version}`;
  const cached = cache.get(key);
  if (cached) return cached;
  const compiled = compileCondition(policy.condition);
  const condition: CompiledCondition = compiled.ok
    ? compiled.condition
    : { holds: () => false, reads: { groups: [], timeDependent: false } };
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(key, condition);
  return condition;
}
