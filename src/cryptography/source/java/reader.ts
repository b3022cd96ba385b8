/**
 * Evaluates Java expressions of one file to the values the API tables read: literals, string
 * concatenation, and references to classes (by simple name, as JCA and BouncyCastle code writes
 * them), followed through `static final` constants, fields, locals, `this.` assignments, static
 * imports and small methods returning a literal. A class imported from a package that is not a
 * crypto package keeps its full name, so `com.acme.Signature.getInstance` is no JCA call.
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

export interface JavaEvaluator {
  value(node: SyntaxNode): Value;
  imports(module: string): boolean;
  /** Names bound by static imports (`import static ...SignatureAlgorithm.RS256`). */
  staticImports: ReadonlySet<string>;
}

const CRYPTO_PACKAGES =
  /^(java\.security|javax\.crypto|org\.bouncycastle|io\.jsonwebtoken|com\.nimbusds|com\.auth0\.jwt)(\.|$)/;
const PASS_THROUGH = new Set([
  'String.valueOf',
  'Integer.parseInt',
  'Integer.valueOf',
  'Objects.requireNonNull',
]);
const LISTS = new Set(['List.of', 'Set.of', 'Arrays.asList', 'Stream.of']);

function stringLiteral(node: SyntaxNode): Value {
  let text = '';
  for (const child of namedChildren(node)) {
    if (child.type === 'string_fragment' || child.type === 'multiline_string_fragment')
      text += child.text;
    else if (child.type === 'string_interpolation') return UNKNOWN;
  }
  return { kind: 'string', value: text };
}

/** The class a type node names, by its simple name (`java.security.spec.X` → `X`). */
export function typeName(type: SyntaxNode | null): string | undefined {
  let current = type;
  if (current?.type === 'generic_type') current = current.firstNamedChild;
  if (!current) return undefined;
  if (current.type === 'scoped_type_identifier') return current.lastNamedChild?.text;
  return current.type === 'type_identifier' ? current.text : undefined;
}

function returnedExpression(method: SyntaxNode): SyntaxNode | undefined {
  const body = method.childForFieldName('body');
  for (const statement of body ? namedChildren(body) : []) {
    if (statement.type === 'return_statement') return statement.firstNamedChild ?? undefined;
  }
  return undefined;
}

const PACKAGE_NAME = /^[a-z_][\w]*(\.[a-z_][\w]*)*$/;

interface EvaluationState {
  names: Bindings;
  classes: Map<string, string>;
  localClasses: Set<string>;
  enums: Set<string>;
  value: (node: SyntaxNode) => Value;
}

function classRef(s: EvaluationState, name: string): Value {
  const mapped = s.classes.get(name);
  if (mapped !== undefined) return api(mapped);
  return /^[A-Z]/.test(name) && !s.localClasses.has(name) ? api(name) : UNKNOWN;
}

function identifier(s: EvaluationState, node: SyntaxNode): Value {
  const bound = s.names.lookup(node.text, node.startIndex);
  if (bound) return bound;
  return classRef(s, node.text);
}

function fieldAccess(s: EvaluationState, node: SyntaxNode): Value {
  const object = node.childForFieldName('object');
  const field = node.childForFieldName('field');
  if (!object || !field) return UNKNOWN;
  if (object.type === 'this' || (object.type === 'identifier' && s.localClasses.has(object.text))) {
    return s.names.lookup(`this.${field.text}`, node.startIndex) ?? UNKNOWN;
  }
  // `java.security.KeyPairGenerator`: a package-qualified class is its simple name.
  if (
    PACKAGE_NAME.test(object.text) &&
    /^[A-Z]/.test(field.text) &&
    !s.names.has(object.text.split('.')[0] ?? '')
  ) {
    return classRef(s, field.text);
  }
  return member(s.value(object), field.text);
}

/** `KeyAlgorithm.RSA.name()` on an enum of the file is the string "RSA". */
function enumConstant(
  s: EvaluationState,
  object: SyntaxNode | null,
  method: string,
): string | undefined {
  if (object?.type !== 'field_access' || (method !== 'name' && method !== 'toString'))
    return undefined;
  const owner = object.childForFieldName('object');
  const field = object.childForFieldName('field');
  return owner && field && s.enums.has(owner.text) ? field.text : undefined;
}

function invocation(s: EvaluationState, node: SyntaxNode): Value {
  const object = node.childForFieldName('object');
  const name = node.childForFieldName('name');
  const args = node.childForFieldName('arguments');
  const list = args ? namedChildren(args).filter((n) => n.type !== 'comment') : [];
  if (!name) return UNKNOWN;
  const constant = enumConstant(s, object, name.text);
  if (constant !== undefined) return { kind: 'string', value: constant };
  let target: Value;
  if (!object || object.type === 'this') {
    target =
      s.names.lookup(`this.${name.text}`, node.startIndex) ??
      s.names.lookup(name.text, node.startIndex) ??
      UNKNOWN;
  } else target = member(s.value(object), name.text);
  if (target.kind === 'function') {
    const returned = returnedExpression(target.node);
    return returned ? s.value(returned) : UNKNOWN;
  }
  if (target.kind === 'api' && PASS_THROUGH.has(target.path))
    return list[0] ? s.value(list[0]) : UNKNOWN;
  if (target.kind === 'api' && target.path === 'System.getProperty')
    return list[1] ? s.value(list[1]) : UNKNOWN;
  if (target.kind === 'api' && LISTS.has(target.path)) return { kind: 'list', items: list };
  return called(target, node);
}

function evaluate(s: EvaluationState, node: SyntaxNode): Value {
  switch (node.type) {
    case 'string_literal':
      return stringLiteral(node);
    case 'decimal_integer_literal':
    case 'hex_integer_literal':
    case 'octal_integer_literal':
    case 'binary_integer_literal':
      return numberValue(node.text);
    case 'null_literal':
      return NULL;
    case 'identifier':
      return identifier(s, node);
    case 'field_access':
      return fieldAccess(s, node);
    case 'method_invocation':
      return invocation(s, node);
    case 'object_creation_expression': {
      const name = typeName(node.childForFieldName('type'));
      return name ? called(classRef(s, name), node, true) : UNKNOWN;
    }
    case 'array_initializer':
      return { kind: 'list', items: namedChildren(node).filter((n) => n.type !== 'comment') };
    case 'array_creation_expression': {
      const initializer = node.childForFieldName('value');
      return initializer ? s.value(initializer) : UNKNOWN;
    }
    case 'ternary_expression': {
      // Either branch may run: a name argument reads both (`fast ? "EC" : "RSA"`).
      const branches = [
        node.childForFieldName('consequence'),
        node.childForFieldName('alternative'),
      ];
      return { kind: 'list', items: branches.filter((n): n is SyntaxNode => n !== null) };
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
    case 'parenthesized_expression':
      return node.firstNamedChild ? s.value(node.firstNamedChild) : UNKNOWN;
    case 'cast_expression': {
      const inner = node.childForFieldName('value');
      return inner ? s.value(inner) : UNKNOWN;
    }
    default:
      return UNKNOWN;
  }
}

export function javaEvaluator(nodes: NodesByType): JavaEvaluator {
  const state: EvaluationState = {
    names: bindings(),
    classes: new Map(),
    localClasses: new Set(),
    enums: new Set(),
    value: () => UNKNOWN,
  };
  state.value = memoised((node) => evaluate(state, node));
  const packages = new Set<string>();
  const staticImports = new Set<string>();
  collectImports(nodes, state.classes, packages, staticImports, state.names);
  collectBindings(nodes, state.names, state.localClasses, state.value);
  for (const declaration of nodes.of('enum_declaration')) {
    const name = declaration.childForFieldName('name');
    if (name) state.enums.add(name.text);
  }
  return {
    value: state.value,
    imports: (module) => [...packages].some((name) => name.startsWith(module)),
    staticImports,
  };
}

function collectImports(
  nodes: NodesByType,
  classes: Map<string, string>,
  packages: Set<string>,
  staticImports: Set<string>,
  names: Bindings,
): void {
  for (const declaration of nodes.of('import_declaration')) {
    const path = namedChildren(declaration).find(
      (child) => child.type === 'scoped_identifier',
    )?.text;
    if (!path || namedChildren(declaration).some((child) => child.type === 'asterisk')) {
      if (path) packages.add(path);
      continue;
    }
    const isStatic = declaration.children.some((child) => child?.type === 'static');
    const parts = path.split('.');
    const simple = parts[parts.length - 1] ?? path;
    packages.add(parts.slice(0, -1).join('.'));
    const crypto = CRYPTO_PACKAGES.test(path);
    if (!isStatic) {
      classes.set(simple, crypto ? simple : path);
      continue;
    }
    const owner = parts[parts.length - 2] ?? '';
    staticImports.add(simple);
    names.add(simple, 0, () => api(crypto ? `${owner}.${simple}` : path));
  }
}

function bindDeclarators(
  node: SyntaxNode,
  names: Bindings,
  value: (node: SyntaxNode) => Value,
  isField: boolean,
): void {
  for (const declarator of node.childrenForFieldName('declarator')) {
    const name = declarator?.childForFieldName('name');
    const initial = declarator?.childForFieldName('value');
    if (!declarator || !name || !initial) continue;
    names.add(name.text, isField ? 0 : declarator.startIndex, () => value(initial));
    if (isField) names.add(`this.${name.text}`, 0, () => value(initial));
  }
}

const DECLARATION_TYPES = [
  'field_declaration',
  'constant_declaration',
  'local_variable_declaration',
  'assignment_expression',
  'method_declaration',
  'class_declaration',
  'enum_declaration',
  'interface_declaration',
  'record_declaration',
];

/** The node types the evaluator reads (walked once with the detector's own). */
export const JAVA_BINDING_TYPES: readonly string[] = ['import_declaration', ...DECLARATION_TYPES];

function collectBindings(
  nodes: NodesByType,
  names: Bindings,
  localClasses: Set<string>,
  value: (node: SyntaxNode) => Value,
): void {
  for (const node of nodes.of(...DECLARATION_TYPES)) {
    if (node.type === 'field_declaration' || node.type === 'constant_declaration') {
      bindDeclarators(node, names, value, true);
    } else if (node.type === 'local_variable_declaration')
      bindDeclarators(node, names, value, false);
    else if (node.type === 'assignment_expression') {
      const left = node.childForFieldName('left');
      const right = node.childForFieldName('right');
      if (!left || !right) continue;
      const field =
        left.type === 'field_access' && left.childForFieldName('object')?.type === 'this';
      const name = field
        ? left.childForFieldName('field')?.text
        : left.type === 'identifier'
          ? left.text
          : undefined;
      if (!name) continue;
      names.add(name, node.startIndex, () => value(right));
      names.add(`this.${name}`, node.startIndex, () => value(right));
    } else if (node.type === 'method_declaration') {
      const name = node.childForFieldName('name');
      if (name) names.add(`this.${name.text}`, 0, () => ({ kind: 'function', node }));
    } else {
      const name = node.childForFieldName('name');
      if (name) localClasses.add(name.text);
    }
  }
}
