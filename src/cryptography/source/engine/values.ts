/**
 * What an expression of a source file is worth to the detectors, the same for every language:
 * a literal, an object or list literal, a reference to a known API (a module, a class, a
 * function or the result of calling one), a library name the file does not bind, a key object,
 * a local function, or unknown. Each language's reader turns its syntax nodes into these,
 * following constants, variables, object properties and small functions in the same file.
 */
import type { SyntaxNode } from '../parser.js';
import type { PublicKeyAlgorithm } from '../types.js';

export type Value =
  | { kind: 'string'; value: string }
  | { kind: 'number'; value: number }
  | { kind: 'null' }
  /**
   * An object, dictionary, map, option array or hash, or keyword-argument literal; entries are
   * evaluated lazily.
   */
  | { kind: 'object'; entries: ReadonlyMap<string, SyntaxNode> }
  | { kind: 'list'; items: readonly SyntaxNode[] }
  /**
   * A known API: `path` is canonical (`crypto.generateKeyPairSync`, `pyca.ec.SECP256R1()`,
   * `new KeyPairGenerator.getInstance()`); `calls` are the call nodes along the way, first to
   * last, so a rule can read the arguments of the call that produced a value.
   */
  | { kind: 'api'; path: string; calls: readonly SyntaxNode[] }
  /** A qualified name that is not bound in the file: a library constant or enum member. */
  | { kind: 'path'; segments: readonly string[] }
  /** A key object (or a signer, cipher or agreement bound to one) of a public-key family. */
  | {
      kind: 'key';
      algorithm: PublicKeyAlgorithm;
      curve?: string | undefined;
      /** Existing key material (RSAParameters, a PEM) rather than a size or curve to generate. */
      material?: boolean;
    }
  | { kind: 'function'; node: SyntaxNode }
  | { kind: 'unknown' };

export const UNKNOWN: Value = { kind: 'unknown' };

const MAX_STRING = 4096;
export const NULL: Value = { kind: 'null' };

export function api(path: string, calls: readonly SyntaxNode[] = []): Value {
  return { kind: 'api', path, calls };
}

/** The value of a member of an API reference: `crypto` + `subtle` is `crypto.subtle`. */
export function member(of: Value, name: string): Value {
  if (of.kind !== 'api') return UNKNOWN;
  return api(of.path === '' ? name : `${of.path}.${name}`, of.calls);
}

/** The value of calling an API reference (`new` for constructors). */
export function called(callee: Value, call: SyntaxNode, isNew = false): Value {
  if (callee.kind !== 'api' || callee.path === '') return UNKNOWN;
  const path = isNew ? `new ${callee.path}()` : `${callee.path}()`;
  return api(path, [...callee.calls, call]);
}

export function stringOf(value: Value | undefined): string | undefined {
  if (value?.kind === 'string') return value.value;
  if (value?.kind === 'number') return String(value.value);
  return undefined;
}

export function numberOf(value: Value | undefined): number | undefined {
  if (value?.kind === 'number') return Number.isFinite(value.value) ? value.value : undefined;
  if (value?.kind === 'string' && /^\s*\d{1,6}\s*$/.test(value.value)) return Number(value.value);
  return undefined;
}

/** Type suffixes of number literals: `2048L`, `2048n`, `2048UL`, `2048u32`, `2048usize`. */
const NUMBER_SUFFIX = /(?:[iu](?:8|16|32|64|128|size)|[lLnuU]+)$/;

/** `2048`, `0x800`, `2_048`, `2048L`, `2048n`, `2048u32`: the number a literal's text means. */
export function numberLiteral(text: string): number | undefined {
  const clean = text.trim().replace(/_/g, '').replace(NUMBER_SUFFIX, '');
  if (!/^(0[xX][0-9a-fA-F]+|0[bB][01]+|0[oO][0-7]+|\d+(\.\d+)?([eE][+-]?\d+)?)$/.test(clean)) {
    return undefined;
  }
  const value = Number(clean);
  return Number.isFinite(value) ? value : undefined;
}

/** A number literal's value (`2048`, `0x800`, `2048u32`), or unknown. */
export function numberValue(text: string): Value {
  const value = numberLiteral(text);
  return value === undefined ? UNKNOWN : { kind: 'number', value };
}

/** The last name of an API path, without call parentheses: `pyca.ec.SECP256R1()` → `SECP256R1`. */
export function lastName(path: string): string {
  const trimmed = path.endsWith('()') ? path.slice(0, -2) : path;
  const dot = trimmed.lastIndexOf('.');
  return dot < 0 ? trimmed.replace(/^new /, '') : trimmed.slice(dot + 1);
}

/** Joins two known values with `+` (strings concatenate, numbers add); otherwise unknown. */
export function plus(left: Value, right: Value): Value {
  if (left.kind === 'number' && right.kind === 'number') {
    return { kind: 'number', value: left.value + right.value };
  }
  const a = stringOf(left);
  const b = stringOf(right);
  // Names are short; a concatenation that keeps doubling (`a2 = a1 + a1`) is no name.
  if (a === undefined || b === undefined || a.length + b.length > MAX_STRING) return UNKNOWN;
  return { kind: 'string', value: a + b };
}

/**
 * Arithmetic on known numbers, as key sizes are written (`2 * 1024`, `1 << 11`, `4096 / 2`);
 * integers stay integers (`/` truncates) and nothing past the safe range is a number.
 */
export function arithmetic(operator: string, left: Value, right: Value): Value {
  const a = numberOf(left);
  const b = numberOf(right);
  if (a === undefined || b === undefined) return UNKNOWN;
  let value: number | undefined;
  if (operator === '+') value = a + b;
  else if (operator === '-') value = a - b;
  else if (operator === '*') value = a * b;
  else if (operator === '/' && b !== 0) value = Math.trunc(a / b);
  else if (operator === '<<' && b >= 0 && b < 31) value = a * 2 ** b;
  return value !== undefined && Number.isSafeInteger(value) ? { kind: 'number', value } : UNKNOWN;
}

/**
 * A binary expression on known values: `concat` joins strings (`+` in most languages, `.` in
 * PHP), other operators are arithmetic.
 */
export function binary(operator: string, left: Value, right: Value, concat = '+'): Value {
  if (operator === concat) {
    if (left.kind === 'string' || right.kind === 'string') return plus(left, right);
    if (concat !== '+') return UNKNOWN;
  }
  return arithmetic(operator, left, right);
}

/**
 * A table lookup by a name read from the file: only the table's own keys, never an inherited
 * property (`constructor`, `toString`, `__proto__` are ordinary identifiers in source code).
 */
export function own<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

/** A binary expression node (fields `left`, `operator`, `right`, as most grammars name them). */
export function binaryExpression(
  node: SyntaxNode,
  value: (node: SyntaxNode) => Value,
  concat = '+',
): Value {
  const left = node.childForFieldName('left');
  const right = node.childForFieldName('right');
  const operator = node.childForFieldName('operator')?.text ?? '';
  if (!left || !right) return UNKNOWN;
  return binary(operator, value(left), value(right), concat);
}
