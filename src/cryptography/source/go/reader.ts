/**
 * Evaluates Go expressions of one file to the values the API tables read: literals, and
 * references to packages followed through import paths and aliases, constants and variables
 * (`const bits = 4096`, `curve := ecdh.P256()`), struct fields and parameters whose type is a
 * crypto type (`key *rsa.PrivateKey`), flag defaults and small functions.
 */

import { type Bindings, bindings, memoised } from '../engine/scope.js';
import { type NodesByType, namedChildren } from '../engine/syntax.js';
import {
  api,
  arithmetic,
  called,
  member,
  NULL,
  numberValue,
  plus,
  UNKNOWN,
  type Value,
} from '../engine/values.js';
import type { SyntaxNode } from '../parser.js';

export interface GoEvaluator {
  value(node: SyntaxNode): Value;
  imports(module: string): boolean;
  /** The canonical import path a package name refers to, if the file imports it. */
  packagePath(name: string): string | undefined;
}

/** Import paths to the canonical names the tables use. */
export function canonicalImport(path: string): string {
  if (/^golang\.org\/x\/crypto\/ed25519$/.test(path)) return 'crypto/ed25519';
  if (path.startsWith('golang.org/x/crypto/'))
    return `x/crypto/${path.slice('golang.org/x/crypto/'.length)}`;
  if (
    /^github\.com\/(golang-jwt\/jwt|dgrijalva\/jwt-go|form3tech-oss\/jwt-go)(\/v\d+)?$/.test(path)
  )
    return 'jwt';
  if (
    /^(github\.com\/(go-jose|square)\/go-jose|gopkg\.in\/(square|go-jose)\/go-jose)(\.v\d+|\/v\d+)?$/.test(
      path,
    )
  ) {
    return 'jose';
  }
  if (/^github\.com\/lestrrat-go\/jwx(\/v\d+)?\/jwa$/.test(path)) return 'jwa';
  return path;
}

/** The name a package is used by when the import does not rename it. */
export function defaultPackageName(path: string): string {
  const parts = path.split('/');
  let last = parts[parts.length - 1] ?? path;
  if (/^v\d+$/.test(last) && parts.length > 1) last = parts[parts.length - 2] ?? last;
  return last
    .replace(/\.v\d+$/, '')
    .replace(/^go-/, '')
    .replace(/-go$/, '')
    .replace(/[^A-Za-z0-9_]/g, '');
}

const CONVERSIONS = /^(u?int(8|16|32|64)?|string|\[\]byte)$/;
const FLAGS = new Set(['flag.Int', 'flag.Int64', 'flag.Uint', 'flag.String']);

function stringLiteral(node: SyntaxNode): Value {
  return { kind: 'string', value: node.text.slice(1, -1) };
}

/** The first expression a function returns at its top level. */
function returnedExpression(fn: SyntaxNode): SyntaxNode | undefined {
  const body = fn.childForFieldName('body');
  const statements = body?.firstNamedChild?.type === 'statement_list' ? body.firstNamedChild : body;
  for (const statement of statements ? namedChildren(statements) : []) {
    if (statement.type === 'return_statement')
      return statement.firstNamedChild?.firstNamedChild ?? undefined;
  }
  return undefined;
}

/** `rsa.PrivateKey`, `*rsa.PrivateKey`: the package and name of a qualified type. */
export function qualifiedType(type: SyntaxNode | null): { pkg: string; name: string } | undefined {
  let current = type;
  while (current && current.type === 'pointer_type') current = current.firstNamedChild;
  if (current?.type !== 'qualified_type') return undefined;
  const pkg = current.childForFieldName('package');
  const name = current.childForFieldName('name');
  return pkg && name ? { pkg: pkg.text, name: name.text } : undefined;
}

interface EvaluationState {
  names: Bindings;
  packages: Map<string, string>;
  value: (node: SyntaxNode) => Value;
}

function selectorOf(s: EvaluationState, node: SyntaxNode): Value {
  const operand = node.childForFieldName('operand');
  const field = node.childForFieldName('field');
  if (!operand || !field) return UNKNOWN;
  if (operand.type === 'identifier' && s.packages.has(operand.text) && !s.names.has(operand.text)) {
    return api(`${s.packages.get(operand.text)}.${field.text}`);
  }
  const of = s.value(operand);
  if (of.kind === 'api') return member(of, field.text);
  return s.names.lookup(`this.${field.text}`, node.startIndex) ?? UNKNOWN;
}

function callOf(s: EvaluationState, node: SyntaxNode): Value {
  const callee = node.childForFieldName('function');
  const args = node.childForFieldName('arguments');
  const list = args ? namedChildren(args).filter((n) => n.type !== 'comment') : [];
  if (!callee) return UNKNOWN;
  if (CONVERSIONS.test(callee.text) && !s.names.has(callee.text))
    return list[0] ? s.value(list[0]) : UNKNOWN;
  const target = s.value(callee);
  if (target.kind === 'api' && FLAGS.has(target.path)) return list[1] ? s.value(list[1]) : UNKNOWN;
  if (target.kind === 'function') {
    const returned = returnedExpression(target.node);
    return returned ? s.value(returned) : UNKNOWN;
  }
  return called(target, node);
}

function compositeOf(s: EvaluationState, node: SyntaxNode): Value {
  const type = node.childForFieldName('type');
  const body = node.childForFieldName('body');
  const qualified = qualifiedType(type);
  if (qualified) {
    const path = s.packages.get(qualified.pkg);
    return path ? called(api(`${path}.${qualified.name}`), node, true) : UNKNOWN;
  }
  if (!body || !type || !/^(slice_type|array_type|implicit_length_array_type)$/.test(type.type))
    return UNKNOWN;
  const items = namedChildren(body)
    .filter((child) => child.type === 'literal_element')
    .map((child) => child.firstNamedChild)
    .filter((child): child is SyntaxNode => child !== null);
  return { kind: 'list', items };
}

function evaluate(s: EvaluationState, node: SyntaxNode): Value {
  switch (node.type) {
    case 'interpreted_string_literal':
    case 'raw_string_literal':
      return stringLiteral(node);
    case 'int_literal':
      return numberValue(node.text);
    case 'nil':
      return NULL;
    case 'identifier':
      return s.names.lookup(node.text, node.startIndex) ?? UNKNOWN;
    case 'selector_expression':
      return selectorOf(s, node);
    case 'call_expression':
      return callOf(s, node);
    case 'composite_literal':
      return compositeOf(s, node);
    case 'unary_expression':
    case 'parenthesized_expression': {
      const inner = node.childForFieldName('operand') ?? node.firstNamedChild;
      return inner ? s.value(inner) : UNKNOWN;
    }
    case 'binary_expression': {
      const left = node.childForFieldName('left');
      const right = node.childForFieldName('right');
      const operator = node.childForFieldName('operator')?.text ?? '';
      if (!left || !right) return UNKNOWN;
      return operator === '+'
        ? plus(s.value(left), s.value(right))
        : arithmetic(operator, s.value(left), s.value(right));
    }
    case 'func_literal':
      return { kind: 'function', node };
    default:
      return UNKNOWN;
  }
}

export function goEvaluator(nodes: NodesByType): GoEvaluator {
  const state: EvaluationState = { names: bindings(), packages: new Map(), value: () => UNKNOWN };
  state.value = memoised((node) => evaluate(state, node));
  collectBindings(nodes, state.names, state.packages, state.value);
  return {
    value: state.value,
    imports: (module) => [...state.packages.values()].includes(module),
    packagePath: (name) => state.packages.get(name),
  };
}

function bindImport(spec: SyntaxNode, packages: Map<string, string>): void {
  const pathNode = spec.childForFieldName('path');
  if (!pathNode) return;
  const path = pathNode.text.slice(1, -1);
  const alias = spec.childForFieldName('name');
  if (alias && (alias.type === 'blank_identifier' || alias.type === 'dot')) return;
  packages.set(alias ? alias.text : defaultPackageName(path), canonicalImport(path));
}

/**
 * `pub, priv, err := ed25519.GenerateKey(r)` binds every name to the call (its results share the
 * call's family); `a, b := x, y` binds pairwise.
 */
function bindList(
  left: SyntaxNode[],
  right: SyntaxNode[],
  start: number,
  names: Bindings,
  value: (node: SyntaxNode) => Value,
): void {
  left.forEach((target, index) => {
    const source = right.length === 1 ? right[0] : right[index];
    if (!source) return;
    if (target.type === 'identifier') names.add(target.text, start, () => value(source));
    else if (target.type === 'selector_expression') {
      const field = target.childForFieldName('field');
      if (field) names.add(`this.${field.text}`, start, () => value(source));
    }
  });
}

function bindTyped(
  node: SyntaxNode,
  names: Bindings,
  packages: Map<string, string>,
  prefix: string,
): void {
  const qualified = qualifiedType(node.childForFieldName('type'));
  const path = qualified ? packages.get(qualified.pkg) : undefined;
  if (!qualified || !path) return;
  for (const name of node.childrenForFieldName('name')) {
    if (name)
      names.add(prefix + name.text, node.startIndex, () =>
        called(api(`${path}.${qualified.name}`), node, true),
      );
  }
}

const DECLARATION_TYPES = [
  'const_spec',
  'var_spec',
  'short_var_declaration',
  'assignment_statement',
  'function_declaration',
  'method_declaration',
  'parameter_declaration',
  'field_declaration',
];

/** The node types the evaluator binds names from (walked once with the detector's own). */
export const GO_BINDING_TYPES: readonly string[] = ['import_spec', ...DECLARATION_TYPES];

function collectBindings(
  nodes: NodesByType,
  names: Bindings,
  packages: Map<string, string>,
  value: (node: SyntaxNode) => Value,
): void {
  for (const spec of nodes.of('import_spec')) bindImport(spec, packages);
  for (const node of nodes.of(...DECLARATION_TYPES)) {
    const start = node.startIndex;
    if (node.type === 'const_spec' || node.type === 'var_spec') {
      const targets = node.childrenForFieldName('name').filter((n): n is SyntaxNode => n !== null);
      const values = node.childForFieldName('value');
      if (values) bindList(targets, namedChildren(values), start, names, value);
      else bindTyped(node, names, packages, '');
    } else if (node.type === 'short_var_declaration' || node.type === 'assignment_statement') {
      const left = node.childForFieldName('left');
      const right = node.childForFieldName('right');
      if (left && right) bindList(namedChildren(left), namedChildren(right), start, names, value);
    } else if (node.type === 'function_declaration' || node.type === 'method_declaration') {
      const name = node.childForFieldName('name');
      const key = node.type === 'method_declaration' ? `this.${name?.text}` : (name?.text ?? '');
      if (name) names.add(key, 0, () => ({ kind: 'function', node }));
    } else bindTyped(node, names, packages, node.type === 'field_declaration' ? 'this.' : '');
  }
}
