/**
 * Evaluates Python expressions of one file to the values the API tables read: literals,
 * dicts, and references to crypto modules followed through `import`, `from ... import ... as`,
 * module constants, class attributes (`self.KEY_SIZE`), parameter defaults, properties and
 * small functions.
 */

import { type Bindings, bindings, memoised } from '../engine/scope.js';
import { descendants, type NodesByType, namedChildren } from '../engine/syntax.js';
import {
  api,
  arithmetic,
  called,
  member,
  NULL,
  numberValue,
  plus,
  stringOf,
  UNKNOWN,
  type Value,
} from '../engine/values.js';
import type { SyntaxNode } from '../parser.js';

export interface PythonEvaluator {
  value(node: SyntaxNode): Value;
  imports(module: string): boolean;
}

/** Long module prefixes to the short names the tables use. */
const PREFIXES: ReadonlyArray<[string, string]> = [
  ['cryptography.hazmat.primitives.asymmetric.', 'pyca.'],
  ['cryptography.hazmat.primitives.', 'pyca.'],
  ['cryptography.hazmat.', 'pyca.'],
  ['cryptography.', 'pyca.'],
  ['Cryptodome.', 'Crypto.'],
  ['paramiko.rsakey.', 'paramiko.'],
  ['paramiko.dsskey.', 'paramiko.'],
  ['paramiko.ecdsakey.', 'paramiko.'],
  ['paramiko.ed25519key.', 'paramiko.'],
  ['paramiko.pkey.', 'paramiko.'],
  ['ecdsa.keys.', 'ecdsa.'],
  ['ecdsa.curves.', 'ecdsa.'],
  ['ecdsa.ecdh.', 'ecdsa.'],
  ['jose.jwt.', 'jwt.'],
  ['jose.jws.', 'jws.'],
  ['jwt.api_jwt.', 'jwt.'],
];

/** The canonical path of a dotted module path. */
export function canonicalPath(path: string): string {
  for (const [prefix, short] of PREFIXES) {
    if (path.startsWith(prefix)) return short + path.slice(prefix.length);
    if (`${path}.` === prefix) return short.slice(0, -1);
  }
  return path;
}

export function canonicalMember(of: Value, name: string): Value {
  const next = member(of, name);
  return next.kind === 'api' ? api(canonicalPath(next.path), next.calls) : next;
}

const CONVERSIONS = new Set(['int', 'str', 'bytes', 'float']);
const ENVIRONMENT = new Set(['os.environ.get', 'os.getenv', 'os.environ.setdefault']);

function stringLiteral(node: SyntaxNode): Value {
  let text = '';
  for (const child of namedChildren(node)) {
    if (child.type === 'interpolation') return UNKNOWN;
    if (child.type === 'string_content') text += child.text;
  }
  return { kind: 'string', value: text };
}

/** The expression a small function returns: a lambda's body or its first top-level return. */
function returnedExpression(fn: SyntaxNode): SyntaxNode | undefined {
  const body = fn.childForFieldName('body');
  if (!body) return undefined;
  if (fn.type === 'lambda') return body;
  for (const statement of namedChildren(body)) {
    if (statement.type === 'return_statement') return statement.firstNamedChild ?? undefined;
  }
  return undefined;
}

interface EvaluationState {
  names: Bindings;
  classes: Set<string>;
  value: (node: SyntaxNode) => Value;
}

function attributeOf(s: EvaluationState, node: SyntaxNode): Value {
  const object = node.childForFieldName('object');
  const attribute = node.childForFieldName('attribute');
  if (!object || !attribute) return UNKNOWN;
  if (
    object.type === 'identifier' &&
    (/^(self|cls)$/.test(object.text) || s.classes.has(object.text))
  ) {
    return s.names.lookup(`this.${attribute.text}`, node.startIndex) ?? UNKNOWN;
  }
  return canonicalMember(s.value(object), attribute.text);
}

function subscriptOf(s: EvaluationState, node: SyntaxNode): Value {
  const object = node.childForFieldName('value');
  const index = node.childForFieldName('subscript');
  if (!object || !index) return UNKNOWN;
  const of = s.value(object);
  const key = stringOf(s.value(index));
  if (of.kind === 'object' && key !== undefined) {
    const entry = of.entries.get(key);
    return entry ? s.value(entry) : UNKNOWN;
  }
  if (of.kind === 'list' && key !== undefined && /^\d+$/.test(key)) {
    const item = of.items[Number(key)];
    return item ? s.value(item) : UNKNOWN;
  }
  return UNKNOWN;
}

function callOf(s: EvaluationState, node: SyntaxNode): Value {
  const callee = node.childForFieldName('function');
  const args = node.childForFieldName('arguments');
  if (!callee) return UNKNOWN;
  const positional = args
    ? namedChildren(args).filter(
        (n) => !/^(keyword_argument|comment|list_splat|dictionary_splat)$/.test(n.type),
      )
    : [];
  if (callee.type === 'identifier' && CONVERSIONS.has(callee.text) && !s.names.has(callee.text)) {
    return positional[0] ? s.value(positional[0]) : UNKNOWN;
  }
  if (callee.type === 'identifier' && callee.text === 'dict' && args) return dictOf(s, args);
  const target = s.value(callee);
  if (target.kind === 'api' && ENVIRONMENT.has(target.path)) {
    return positional[1] ? s.value(positional[1]) : UNKNOWN;
  }
  if (target.kind === 'function') {
    const returned = returnedExpression(target.node);
    return returned ? s.value(returned) : UNKNOWN;
  }
  return called(target, node);
}

function dictOf(s: EvaluationState, node: SyntaxNode): Value {
  const entries = new Map<string, SyntaxNode>();
  for (const child of namedChildren(node)) {
    const key = child.childForFieldName(child.type === 'pair' ? 'key' : 'name');
    const entry = child.childForFieldName('value');
    if (!key || !entry || !/^(pair|keyword_argument)$/.test(child.type)) continue;
    const name = child.type === 'pair' ? stringOf(s.value(key)) : key.text;
    if (name !== undefined) entries.set(name, entry);
  }
  return { kind: 'object', entries };
}

function operatorOf(s: EvaluationState, node: SyntaxNode): Value {
  const left = node.childForFieldName('left');
  const right = node.childForFieldName('right');
  const operator = node.childForFieldName('operator')?.text ?? '';
  if (!left || !right) return UNKNOWN;
  const a = s.value(left);
  if (node.type === 'boolean_operator') {
    return a.kind === 'unknown' || a.kind === 'null' ? s.value(right) : a;
  }
  const b = s.value(right);
  return operator === '+' ? plus(a, b) : arithmetic(operator, a, b);
}

function evaluate(s: EvaluationState, node: SyntaxNode): Value {
  switch (node.type) {
    case 'string':
      return stringLiteral(node);
    case 'concatenated_string':
      return namedChildren(node).reduce<Value>((text, part) => plus(text, s.value(part)), {
        kind: 'string',
        value: '',
      });
    case 'integer':
      return numberValue(node.text);
    case 'none':
      return NULL;
    case 'identifier':
      return s.names.lookup(node.text, node.startIndex) ?? UNKNOWN;
    case 'attribute':
      return attributeOf(s, node);
    case 'subscript':
      return subscriptOf(s, node);
    case 'call':
      return callOf(s, node);
    case 'dictionary':
      return dictOf(s, node);
    case 'list':
    case 'tuple':
    case 'set':
      return { kind: 'list', items: namedChildren(node).filter((n) => n.type !== 'comment') };
    case 'conditional_expression': {
      // `'ec' if compact else 'rsa'`: either branch may run, a name argument reads both.
      const [body, , alternative] = namedChildren(node);
      return {
        kind: 'list',
        items: [body, alternative].filter((n): n is SyntaxNode => n !== undefined),
      };
    }
    case 'binary_operator':
    case 'boolean_operator':
      return operatorOf(s, node);
    case 'parenthesized_expression':
    case 'await':
      return node.firstNamedChild ? s.value(node.firstNamedChild) : UNKNOWN;
    case 'lambda':
      return { kind: 'function', node };
    default:
      return UNKNOWN;
  }
}

export function pythonEvaluator(nodes: NodesByType): PythonEvaluator {
  const modules = new Set<string>();
  const state: EvaluationState = { names: bindings(), classes: new Set(), value: () => UNKNOWN };
  state.value = memoised((node) => evaluate(state, node));
  collectBindings(nodes, state.names, state.classes, modules, state.value);
  return { value: state.value, imports: (module) => modules.has(module) };
}

function dottedText(node: SyntaxNode): string {
  return node.text.replace(/\s+/g, '');
}

function bindImports(node: SyntaxNode, names: Bindings, modules: Set<string>): void {
  const start = node.startIndex;
  const from = node.type === 'import_from_statement' ? node.childForFieldName('module_name') : null;
  const base = from ? `${dottedText(from)}.` : '';
  for (const part of node.childrenForFieldName('name')) {
    if (!part) continue;
    const aliased = part.type === 'aliased_import';
    const nameNode = aliased ? part.childForFieldName('name') : part;
    const alias = aliased ? part.childForFieldName('alias') : null;
    if (!nameNode) continue;
    const full = base + dottedText(nameNode);
    const path = canonicalPath(full);
    modules.add(path.split('.')[0] ?? path);
    if (alias) names.add(alias.text, start, () => api(path));
    else if (from) names.add(dottedText(nameNode), start, () => api(path));
    else {
      // `import a.b.c` binds `a`; members are canonicalised as they are read.
      const head = full.split('.')[0] ?? full;
      names.add(head, start, () => api(canonicalPath(head)));
    }
  }
}

function insideClass(node: SyntaxNode): boolean {
  return (
    node.parent?.parent?.type === 'block' && node.parent.parent.parent?.type === 'class_definition'
  );
}

function bindAssignment(
  node: SyntaxNode,
  names: Bindings,
  value: (node: SyntaxNode) => Value,
): void {
  const left = node.childForFieldName('left');
  const right = node.childForFieldName('right');
  if (!left || !right) return;
  const start = node.startIndex;
  if (left.type === 'identifier') {
    names.add(left.text, start, () => value(right));
    if (insideClass(node)) names.add(`this.${left.text}`, 0, () => value(right));
  } else if (left.type === 'attribute') {
    const object = left.childForFieldName('object');
    const attribute = left.childForFieldName('attribute');
    if (object?.type === 'identifier' && /^(self|cls)$/.test(object.text) && attribute) {
      names.add(`this.${attribute.text}`, start, () => value(right));
    }
  }
}

function bindFunction(node: SyntaxNode, names: Bindings, value: (node: SyntaxNode) => Value): void {
  const name = node.childForFieldName('name');
  if (!name) return;
  const fn: Value = { kind: 'function', node };
  const decorated = node.parent?.type === 'decorated_definition' ? node.parent : undefined;
  const isProperty = decorated
    ? namedChildren(decorated).some(
        (child) => child.type === 'decorator' && /^@\s*property\b/.test(child.text),
      )
    : false;
  const inClass = (decorated ?? node).parent?.parent?.type === 'class_definition';
  if (isProperty) {
    const returned = returnedExpression(node);
    names.add(`this.${name.text}`, 0, () => (returned ? value(returned) : UNKNOWN));
  } else if (inClass) names.add(`this.${name.text}`, 0, () => fn);
  else names.add(name.text, 0, () => fn);
  for (const parameter of descendants(node.childForFieldName('parameters') ?? node, [
    'default_parameter',
    'typed_default_parameter',
  ])) {
    const param = parameter.childForFieldName('name');
    const fallback = parameter.childForFieldName('value');
    if (param && fallback) names.add(param.text, parameter.startIndex, () => value(fallback));
  }
}

/** The node types the evaluator binds names from (walked once with the detector's own). */
export const PYTHON_BINDING_TYPES: readonly string[] = [
  'import_statement',
  'import_from_statement',
  'assignment',
  'function_definition',
  'class_definition',
];

function collectBindings(
  nodes: NodesByType,
  names: Bindings,
  classes: Set<string>,
  modules: Set<string>,
  value: (node: SyntaxNode) => Value,
): void {
  for (const node of nodes.of(...PYTHON_BINDING_TYPES)) {
    if (node.type === 'assignment') bindAssignment(node, names, value);
    else if (node.type === 'function_definition') bindFunction(node, names, value);
    else if (node.type === 'class_definition') {
      const name = node.childForFieldName('name');
      if (name) classes.add(name.text);
    } else bindImports(node, names, modules);
  }
}
