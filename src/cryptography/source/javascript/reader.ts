/**
 * Evaluates JavaScript and TypeScript expressions of one file to the values the API tables
 * read: literals, object literals, and references to crypto modules followed through imports,
 * `require`, destructuring, aliases, `this.` fields, class fields and small functions.
 */

import { type Bindings, bindings, memoised } from '../engine/scope.js';
import { descendants, namedChildren, type TypedNode } from '../engine/syntax.js';
import {
  api,
  arithmetic,
  called,
  NULL,
  numberValue,
  own,
  plus,
  stringOf,
  UNKNOWN,
  type Value,
} from '../engine/values.js';
import type { SyntaxNode } from '../parser.js';
import { canonicalModule, GLOBALS, memberPath } from './modules.js';
import { argumentsForParameter } from './parameters.js';

export interface JavaScriptEvaluator {
  value(node: SyntaxNode): Value;
  /** The value of a property of a value (an object entry, an API member, a `this.` field). */
  property(of: Value, name: string): Value;
  imports(module: string): boolean;
}

const WRAPPERS = new Set([
  'parenthesized_expression',
  'as_expression',
  'satisfies_expression',
  'non_null_expression',
  'await_expression',
]);

/** The expression inside parentheses, `await`, `as` and the like, with its type. */
function unwrap(node: SyntaxNode): TypedNode {
  let current = node;
  let type = current.type;
  while (WRAPPERS.has(type) || type === 'type_assertion') {
    const inner = type === 'type_assertion' ? current.lastNamedChild : current.firstNamedChild;
    if (!inner) break;
    current = inner;
    type = current.type;
  }
  return { node: current, type };
}

function propertyName(key: SyntaxNode, value: (node: SyntaxNode) => Value): string | undefined {
  if (key.type === 'property_identifier' || key.type === 'private_property_identifier') {
    return key.text;
  }
  if (key.type === 'string') return key.text.slice(1, -1);
  if (key.type === 'number') return key.text;
  if (key.type === 'computed_property_name' && key.firstNamedChild) {
    return stringOf(value(key.firstNamedChild));
  }
  return undefined;
}

/** The expression a small function returns: an arrow's body or its first top-level return. */
export function returnedExpression(fn: SyntaxNode): SyntaxNode | undefined {
  const body = fn.childForFieldName('body');
  if (!body) return undefined;
  if (body.type !== 'statement_block') return body;
  for (const statement of namedChildren(body)) {
    if (statement.type === 'return_statement') return statement.firstNamedChild ?? undefined;
  }
  return undefined;
}

/**
 * The node types the evaluator binds names from. The detector collects them in the same walk of
 * the tree as the calls (one `descendantsOfType`, the walk is a large part of the cost).
 */
export const BINDING_TYPES: readonly string[] = [
  'import_statement',
  'variable_declarator',
  'assignment_expression',
  'function_declaration',
  'generator_function_declaration',
  'public_field_definition',
  'field_definition',
  'method_definition',
  'class_declaration',
  'required_parameter',
  'optional_parameter',
  'assignment_pattern',
];

interface EvaluationState {
  names: Bindings;
  classes: Set<string>;
  modules: Set<string>;
  calls: readonly TypedNode[];
  /** The file's text: a node's text is a slice of it, read without a call into WebAssembly. */
  text: string;
  value: (node: SyntaxNode) => Value;
}

function propertyOf(s: EvaluationState, of: Value, name: string): Value {
  if (of.kind === 'object') {
    const entry = of.entries.get(name);
    return entry ? s.value(entry) : UNKNOWN;
  }
  if (of.kind === 'api') return memberPath(of, name);
  return UNKNOWN;
}

function identifier(s: EvaluationState, node: SyntaxNode): Value {
  const name = node.text;
  const bound = s.names.lookup(name, node.startIndex);
  if (bound) return bound;
  const passed = argumentsForParameter(node, s.calls, s.text);
  if (passed.length === 1 && passed[0]) return s.value(passed[0]);
  if (passed.length > 1) return { kind: 'list', items: passed };
  const global = own(GLOBALS, name);
  if (global !== undefined) {
    s.modules.add(global.split('.')[0] ?? global);
    return api(global);
  }
  return name === 'undefined' ? NULL : UNKNOWN;
}

function memberOf(s: EvaluationState, node: SyntaxNode): Value {
  const object = node.childForFieldName('object');
  const property = node.childForFieldName('property') ?? node.childForFieldName('index');
  if (!object || !property) return UNKNOWN;
  const name = node.type === 'subscript_expression' ? stringOf(s.value(property)) : property.text;
  if (name === undefined) return UNKNOWN;
  const inner = unwrap(object);
  if (inner.type === 'this' || (inner.type === 'identifier' && s.classes.has(inner.node.text))) {
    return s.names.lookup(`this.${name}`, node.startIndex) ?? UNKNOWN;
  }
  const of = s.value(inner.node);
  if (of.kind === 'list' && /^\d+$/.test(name)) {
    const item = of.items[Number(name)];
    return item ? s.value(item) : UNKNOWN;
  }
  return propertyOf(s, of, name);
}

function callOf(s: EvaluationState, node: SyntaxNode, isNew: boolean): Value {
  const callee = node.childForFieldName(isNew ? 'constructor' : 'function');
  const args = node.childForFieldName('arguments');
  if (!callee) return UNKNOWN;
  const first = args?.firstNamedChild;
  if (
    callee.type === 'import' ||
    (callee.type === 'identifier' && callee.text === 'require' && !s.names.has('require'))
  ) {
    const source = first ? stringOf(s.value(first)) : undefined;
    if (source === undefined) return UNKNOWN;
    const module = canonicalModule(source);
    s.modules.add(module);
    return api(module);
  }
  const target = s.value(callee);
  if (
    target.kind === 'api' &&
    /^(JSON\.stringify|Object\.freeze|Number|parseInt|String)$/.test(target.path)
  ) {
    return first ? s.value(first) : UNKNOWN;
  }
  if (target.kind === 'api' && /^module:(node:)?util\.promisify$/.test(target.path)) {
    return first ? s.value(first) : UNKNOWN;
  }
  if (target.kind === 'function') {
    const returned = returnedExpression(target.node);
    return returned ? s.value(returned) : UNKNOWN;
  }
  return called(target, node, isNew);
}

function objectOf(s: EvaluationState, node: SyntaxNode): Value {
  const entries = new Map<string, SyntaxNode>();
  for (const child of namedChildren(node)) {
    if (child.type === 'pair') {
      const key = child.childForFieldName('key');
      const value = child.childForFieldName('value');
      const name = key ? propertyName(key, s.value) : undefined;
      if (name !== undefined && value) entries.set(name, value);
    } else if (child.type === 'shorthand_property_identifier') {
      entries.set(child.text, child);
    } else if (child.type === 'method_definition') {
      const key = child.childForFieldName('name');
      if (key) entries.set(key.text, child);
    } else if (child.type === 'spread_element' && child.firstNamedChild) {
      const spread = s.value(child.firstNamedChild);
      if (spread.kind === 'object') for (const [k, v] of spread.entries) entries.set(k, v);
    }
  }
  return { kind: 'object', entries };
}

function templateOf(s: EvaluationState, node: SyntaxNode): Value {
  let text = '';
  for (const child of namedChildren(node)) {
    if (child.type === 'string_fragment') text += child.text;
    else if (child.type === 'template_substitution' && child.firstNamedChild) {
      const part = stringOf(s.value(child.firstNamedChild));
      if (part === undefined) return UNKNOWN;
      text += part;
    } else if (child.type !== 'escape_sequence') return UNKNOWN;
  }
  return { kind: 'string', value: text };
}

function binaryOf(s: EvaluationState, node: SyntaxNode): Value {
  const left = node.childForFieldName('left');
  const right = node.childForFieldName('right');
  const operator = node.childForFieldName('operator')?.text ?? '';
  if (!left || !right) return UNKNOWN;
  const a = s.value(left);
  if (operator === '||' || operator === '??') {
    return a.kind === 'unknown' || a.kind === 'null' ? s.value(right) : a;
  }
  const b = s.value(right);
  return operator === '+' ? plus(a, b) : arithmetic(operator, a, b);
}

function evaluate(s: EvaluationState, raw: SyntaxNode): Value {
  const { node, type } = unwrap(raw);
  switch (type) {
    case 'string':
      return { kind: 'string', value: node.text.slice(1, -1) };
    case 'template_string':
      return templateOf(s, node);
    case 'number':
      return numberValue(node.text);
    case 'null':
    case 'undefined':
      return NULL;
    case 'identifier':
    case 'shorthand_property_identifier':
      return identifier(s, node);
    case 'member_expression':
    case 'subscript_expression':
      return memberOf(s, node);
    case 'call_expression':
      return callOf(s, node, false);
    case 'new_expression':
      return callOf(s, node, true);
    case 'object':
      return objectOf(s, node);
    case 'array':
      return { kind: 'list', items: namedChildren(node).filter((n) => n.type !== 'comment') };
    case 'ternary_expression': {
      // Either branch may run: a name argument reads both (`useEc ? 'ec' : 'rsa'`).
      const branches = [
        node.childForFieldName('consequence'),
        node.childForFieldName('alternative'),
      ];
      return { kind: 'list', items: branches.filter((n): n is SyntaxNode => n !== null) };
    }
    case 'binary_expression':
      return binaryOf(s, node);
    case 'arrow_function':
    case 'function_expression':
    case 'function':
    case 'method_definition':
      return { kind: 'function', node };
    default:
      return UNKNOWN;
  }
}

/**
 * An evaluator over one file, given the file's BINDING_TYPES nodes and its calls (with their
 * types, read in the detector's walk) in document order, and the file's text.
 */
export function javascriptEvaluator(
  declarations: readonly TypedNode[],
  calls: readonly TypedNode[],
  text: string,
): JavaScriptEvaluator {
  const state: EvaluationState = {
    names: bindings(),
    classes: new Set(),
    modules: new Set(),
    calls,
    text,
    value: () => UNKNOWN,
  };
  state.value = memoised((node) => evaluate(state, node));
  const evaluator: JavaScriptEvaluator = {
    value: state.value,
    property: (of, name) => propertyOf(state, of, name),
    imports: (module) => state.modules.has(module),
  };
  collectBindings(declarations, state.names, state.classes, state.modules, evaluator);
  return evaluator;
}

function bindImport(statement: SyntaxNode, names: Bindings, modules: Set<string>): void {
  const source = statement.childForFieldName('source');
  if (!source) return;
  const module = canonicalModule(source.text.slice(1, -1));
  modules.add(module);
  const start = statement.startIndex;
  for (const clause of descendants(statement, ['import_clause', 'import_require_clause'])) {
    for (const part of namedChildren(clause)) {
      if (part.type === 'identifier') names.add(part.text, start, () => api(module));
      else if (part.type === 'namespace_import' && part.firstNamedChild) {
        names.add(part.firstNamedChild.text, start, () => api(module));
      } else if (part.type === 'named_imports') {
        for (const specifier of namedChildren(part)) {
          const name = specifier.childForFieldName('name');
          const alias = specifier.childForFieldName('alias') ?? name;
          if (!name || !alias) continue;
          const imported =
            name.text === 'default' ? api(module) : memberPath(api(module), name.text);
          names.add(alias.text, start, () => imported);
        }
      }
    }
  }
}

/** Binds the names of a destructuring pattern to the members of `source`. */
function bindPattern(
  pattern: SyntaxNode,
  source: () => Value,
  start: number,
  names: Bindings,
  ev: JavaScriptEvaluator,
): void {
  if (pattern.type === 'identifier') {
    names.add(pattern.text, start, source);
    return;
  }
  if (pattern.type !== 'object_pattern') return;
  for (const part of namedChildren(pattern)) {
    if (part.type === 'shorthand_property_identifier_pattern') {
      names.add(part.text, start, () => ev.property(source(), part.text));
    } else if (part.type === 'object_assignment_pattern') {
      const left = part.childForFieldName('left');
      if (left) names.add(left.text, start, () => ev.property(source(), left.text));
    } else if (part.type === 'pair_pattern') {
      const key = part.childForFieldName('key');
      const value = part.childForFieldName('value');
      if (!key || !value) continue;
      const name = key.type === 'string' ? key.text.slice(1, -1) : key.text;
      const target = value.type === 'assignment_pattern' ? value.childForFieldName('left') : value;
      if (target) bindPattern(target, () => ev.property(source(), name), start, names, ev);
    }
  }
}

function bindParameter(parameter: SyntaxNode, names: Bindings, ev: JavaScriptEvaluator): void {
  const pattern =
    parameter.childForFieldName('pattern') ?? parameter.childForFieldName('left') ?? parameter;
  if (pattern.type !== 'identifier') return;
  const start = parameter.startIndex;
  const fallback = parameter.childForFieldName('value') ?? parameter.childForFieldName('right');
  const type = parameter.childForFieldName('type')?.firstNamedChild;
  const value = (): Value => {
    if (fallback) return ev.value(fallback);
    // `constructor(private readonly jwt: JwtService)`: an instance of an imported class.
    if (type?.type === 'type_identifier') {
      const named = names.lookup(type.text, start);
      if (named) return called(named, parameter, true);
    }
    return UNKNOWN;
  };
  if (!fallback && !type) return;
  names.add(pattern.text, start, value);
  if (parameter.firstNamedChild?.type === 'accessibility_modifier') {
    names.add(`this.${pattern.text}`, 0, value);
  }
}

/** `type` is the node's, read once by the caller (each read of a node's type is a WebAssembly call). */
function bindDeclaration(
  node: SyntaxNode,
  type: string,
  names: Bindings,
  ev: JavaScriptEvaluator,
): void {
  const start = node.startIndex;
  if (type === 'variable_declarator') {
    const name = node.childForFieldName('name');
    const value = node.childForFieldName('value');
    if (name && value) bindPattern(name, () => ev.value(value), start, names, ev);
  } else if (type === 'assignment_expression') {
    const left = node.childForFieldName('left');
    const right = node.childForFieldName('right');
    if (!left || !right) return;
    if (left.type === 'identifier') names.add(left.text, start, () => ev.value(right));
    else if (
      left.type === 'member_expression' &&
      left.childForFieldName('object')?.type === 'this'
    ) {
      const property = left.childForFieldName('property');
      if (property) names.add(`this.${property.text}`, start, () => ev.value(right));
    }
  } else if (type === 'function_declaration' || type === 'generator_function_declaration') {
    const name = node.childForFieldName('name');
    if (name) names.add(name.text, 0, () => ({ kind: 'function', node }));
  } else if (type === 'public_field_definition' || type === 'field_definition') {
    const name = node.childForFieldName('name') ?? node.childForFieldName('property');
    const value = node.childForFieldName('value');
    if (name && value) names.add(`this.${name.text}`, 0, () => ev.value(value));
  } else if (type === 'method_definition') {
    const name = node.childForFieldName('name');
    if (name && node.parent?.type === 'class_body') {
      names.add(`this.${name.text}`, 0, () => ({ kind: 'function', node }));
    }
  } else {
    bindParameter(node, names, ev);
  }
}

function collectBindings(
  declarations: readonly TypedNode[],
  names: Bindings,
  classes: Set<string>,
  modules: Set<string>,
  ev: JavaScriptEvaluator,
): void {
  for (const { node, type } of declarations) {
    if (type === 'import_statement') bindImport(node, names, modules);
    else if (type === 'class_declaration') {
      const name = node.childForFieldName('name');
      if (name) classes.add(name.text);
    } else if (type === 'assignment_pattern') {
      if (node.parent?.type === 'formal_parameters') bindParameter(node, names, ev);
    } else bindDeclaration(node, type, names, ev);
  }
}
