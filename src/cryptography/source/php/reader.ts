/**
 * Reads a PHP syntax tree for the detector: `use` imports and aliases (grouped ones too), the
 * names bound in the file (variables as `$x`, properties as `->x`, class and global constants,
 * `define()`, parameters with types and defaults, methods and functions returning a literal),
 * values (arrays as option maps), and call sites (functions, static and instance methods,
 * `new`). Function names are matched in lower case, as PHP resolves them.
 */

import { ImportScope } from '../engine/path-table.js';
import type { ApiTables, Evaluation, LanguageReader, TableSite } from '../engine/rules.js';
import { FileBindings, type NodeBinding } from '../engine/scope.js';
import { codeChildren, literalContent, namedChildren, type TypedNode } from '../engine/syntax.js';
import { binaryExpression, numberValue, UNKNOWN, type Value } from '../engine/values.js';
import type { SyntaxNode } from '../parser.js';

const STRING_CONTENT = new Set(['string_content', 'string_value']);
const SELF_SCOPES = new Set(['self', 'static', 'parent']);
const CALLS = new Set([
  'function_call_expression',
  'scoped_call_expression',
  'member_call_expression',
  'nullsafe_member_call_expression',
  'object_creation_expression',
]);

/** Node types the reader indexes before matching (bindings and imports). */
export const PHP_DECLARATIONS = [
  'namespace_use_declaration',
  'class_declaration',
  'assignment_expression',
  'property_element',
  'property_promotion_parameter',
  'simple_parameter',
  'const_element',
  'method_declaration',
  'function_definition',
] as const;

export class PhpReader implements LanguageReader {
  readonly language = 'php' as const;
  private readonly imports = new ImportScope();
  private readonly bindings = new FileBindings<NodeBinding>();
  private readonly classes = new Set<string>();

  constructor(private readonly tables: ApiTables) {}

  /** The declarations of the file, with their types (read once, in the detector's walk). */
  index(nodes: readonly TypedNode[]): void {
    for (const { node, type } of nodes) {
      switch (type) {
        case 'namespace_use_declaration':
          this.addUse(node);
          break;
        case 'class_declaration': {
          const name = node.childForFieldName('name');
          if (name) this.classes.add(name.text);
          break;
        }
        case 'function_call_expression':
          this.addDefine(node);
          break;
        default:
          this.addBinding(node, type);
      }
    }
  }

  private addUse(node: SyntaxNode): void {
    const group = node.childForFieldName('body');
    const prefix = namedChildren(node).find((child) => child.type === 'namespace_name');
    const base = group && prefix ? namespaceSegments(prefix) : [];
    const clauses = namedChildren(group ?? node).filter((c) => c.type === 'namespace_use_clause');
    for (const clause of clauses) {
      const target = namedChildren(clause).find(
        (c) => c.type === 'qualified_name' || c.type === 'name',
      );
      const path = target ? [...base, ...(phpPath(target) ?? [])] : [];
      const alias = clause.childForFieldName('alias')?.text ?? path.at(-1) ?? '';
      this.imports.alias(alias, path);
    }
  }

  /** `define('BITS', 2048)` binds a global constant. */
  private addDefine(node: SyntaxNode): void {
    if (node.childForFieldName('function')?.text.toLowerCase() !== 'define') return;
    const [name, value] = argumentsOf(node.childForFieldName('arguments')).args;
    const text = name?.type === 'string' ? literalContent(name, STRING_CONTENT) : undefined;
    if (text && value) this.bindings.add(text, { at: node.startIndex, value });
  }

  private addBinding(node: SyntaxNode, kind: string): void {
    const at = node.startIndex;
    if (kind === 'assignment_expression') {
      const left = node.childForFieldName('left');
      const name = left ? bindingName(left) : undefined;
      const value = node.childForFieldName('right') ?? undefined;
      if (name) this.bindings.add(name, { at: node.endIndex, value });
      return;
    }
    if (kind === 'method_declaration' || kind === 'function_definition') {
      const name = node.childForFieldName('name');
      const value = returnedExpression(node.childForFieldName('body'));
      if (name && value) this.bindings.add(`${name.text.toLowerCase()}()`, { at, value });
      return;
    }
    const nameNode = node.childForFieldName('name') ?? node.namedChild(0);
    if (!nameNode) return;
    const value =
      node.childForFieldName('default_value') ??
      (kind === 'const_element' ? node.lastNamedChild : null) ??
      undefined;
    const type =
      node.parent?.childForFieldName('type') ?? node.childForFieldName('type') ?? undefined;
    const name = bindingNameOfDeclaration(node, nameNode);
    this.bindings.add(name, { at, value: value?.id === nameNode.id ? undefined : value, type });
  }

  expand(path: readonly string[]): string[][] {
    return this.imports.expand(path);
  }

  evaluate(node: SyntaxNode, evaluation: Evaluation): Value {
    const again = (next: SyntaxNode | null | undefined): Value => evaluation.value(next);
    const callValue = (site: TableSite): Value => evaluation.call(site);
    switch (node.type) {
      case 'string':
      case 'encapsed_string': {
        const text = literalContent(node, STRING_CONTENT);
        return text === undefined ? UNKNOWN : { kind: 'string', value: text };
      }
      case 'integer':
        return numberValue(node.text);
      case 'array_creation_expression':
        return { kind: 'object', entries: arrayEntries(node) };
      case 'parenthesized_expression':
        return again(node.namedChild(0));
      case 'binary_expression':
        return binaryExpression(node, again, '.');
      case 'subscript_expression': {
        // `$config['alg']` of an array literal in the file.
        const [container, index] = codeChildren(node);
        const map = again(container);
        const key = index ? again(index) : UNKNOWN;
        const text =
          key.kind === 'string' ? key.value : key.kind === 'number' ? String(key.value) : undefined;
        const entry =
          map.kind === 'object' && text !== undefined ? map.entries.get(text) : undefined;
        return again(entry);
      }
      case 'conditional_expression': {
        const chosen = again(node.childForFieldName('body'));
        return chosen.kind === 'unknown' ? again(node.childForFieldName('alternative')) : chosen;
      }
      default:
        if (CALLS.has(node.type)) return this.evaluateCall(node, again, callValue);
        return this.evaluateName(node, again);
    }
  }

  private evaluateName(node: SyntaxNode, again: (next: SyntaxNode) => Value): Value {
    const name = this.localName(node);
    if (name !== undefined) {
      const binding = this.bindings.resolve(name, node.startIndex);
      if (binding?.value) return again(binding.value);
      if (binding?.type) return this.typeValue(binding.type);
      if (binding || name.startsWith('$') || name.startsWith('->')) return UNKNOWN;
    }
    const path =
      node.type === 'class_constant_access_expression' ? scopedPath(node) : phpPath(node);
    return path ? { kind: 'path', segments: path } : UNKNOWN;
  }

  /** The file-scope name a node reads: `$x`, `->prop`, `CONST`, `self::CONST`, `Own::CONST`. */
  private localName(node: SyntaxNode): string | undefined {
    if (node.type === 'class_constant_access_expression') {
      const scope = node.namedChild(0);
      const own = scope && (SELF_SCOPES.has(scope.text) || this.classes.has(scope.text));
      return own ? (node.namedChild(1)?.text ?? undefined) : undefined;
    }
    if (node.type === 'name') return node.text;
    return bindingName(node);
  }

  private typeValue(type: SyntaxNode): Value {
    const named =
      type.type === 'named_type' || type.type === 'optional_type'
        ? (type.namedChild(0) ?? type)
        : type;
    const inner = named.type === 'named_type' ? (named.namedChild(0) ?? named) : named;
    const path = phpPath(inner);
    const entry = path ? this.tables.types.lookup(path, this.expand(path)) : undefined;
    return entry ? { kind: 'key', algorithm: entry.algorithm, curve: entry.curve } : UNKNOWN;
  }

  private evaluateCall(
    node: SyntaxNode,
    again: (next: SyntaxNode) => Value,
    callValue: (site: TableSite) => Value,
  ): Value {
    const site = this.siteOf(node);
    if (!site) return UNKNOWN;
    const receiver = site.receiver?.text;
    const scope =
      node.type === 'scoped_call_expression' ? node.childForFieldName('scope')?.text : undefined;
    const own =
      (node.type === 'function_call_expression' && site.segments?.length === 1) ||
      receiver === '$this' ||
      (scope !== undefined && (SELF_SCOPES.has(scope) || this.classes.has(scope)));
    const body = own
      ? this.bindings.resolve(`${site.method.toLowerCase()}()`, node.startIndex)
      : undefined;
    if (body?.value) return again(body.value);
    return callValue(site);
  }

  calleeName(node: SyntaxNode): string | undefined {
    if (node.type === 'object_creation_expression') return 'new';
    if (node.type !== 'function_call_expression') return node.childForFieldName('name')?.text;
    const callee = node.childForFieldName('function');
    const name = callee?.type === 'qualified_name' ? callee.childForFieldName('name') : callee;
    return name?.type === 'name' ? name.text.toLowerCase() : undefined;
  }

  siteOf(node: SyntaxNode): TableSite | null {
    const { args, named } = argumentsOf(node.childForFieldName('arguments') ?? argumentList(node));
    switch (node.type) {
      case 'function_call_expression': {
        const callee = node.childForFieldName('function');
        const path = callee ? phpPath(callee) : null;
        if (!callee || !path) return null;
        const lower = [...path.slice(0, -1), (path.at(-1) ?? '').toLowerCase()];
        const nameNode =
          callee.type === 'qualified_name' ? (callee.childForFieldName('name') ?? callee) : callee;
        return {
          node,
          callee,
          nameNode,
          segments: lower,
          receiver: null,
          method: lower.at(-1) ?? '',
          args,
          keywords: named,
        };
      }
      case 'scoped_call_expression': {
        const nameNode = node.childForFieldName('name');
        const scope = node.childForFieldName('scope');
        if (!nameNode || !scope) return null;
        const scopePath = phpPath(scope);
        const path = scopePath ? [...scopePath, nameNode.text] : null;
        return {
          node,
          callee: scope,
          nameNode,
          segments: path,
          receiver: null,
          method: nameNode.text,
          args,
          keywords: named,
        };
      }
      case 'object_creation_expression': {
        const type = namedChildren(node).find(
          (c) => c.type === 'name' || c.type === 'qualified_name',
        );
        const path = type ? phpPath(type) : null;
        if (!type || !path) return null;
        const nameNode =
          type.type === 'qualified_name' ? (type.childForFieldName('name') ?? type) : type;
        return {
          node,
          callee: type,
          nameNode,
          segments: [...path, 'new'],
          receiver: null,
          method: 'new',
          args,
          keywords: named,
        };
      }
      default: {
        const nameNode = node.childForFieldName('name');
        const receiver = node.childForFieldName('object');
        if (!nameNode || !receiver || !CALLS.has(node.type)) return null;
        return {
          node,
          callee: receiver,
          nameNode,
          segments: null,
          receiver,
          method: nameNode.text,
          args,
          keywords: named,
        };
      }
    }
  }
}

function argumentList(node: SyntaxNode): SyntaxNode | null {
  return namedChildren(node).find((child) => child.type === 'arguments') ?? null;
}

function argumentsOf(list: SyntaxNode | null): {
  args: SyntaxNode[];
  named: Map<string, SyntaxNode>;
} {
  const args: SyntaxNode[] = [];
  const named = new Map<string, SyntaxNode>();
  for (const argument of list ? codeChildren(list) : []) {
    if (argument.type !== 'argument') continue;
    const name = argument.childForFieldName('name');
    const value = argument.lastNamedChild;
    if (!value || value.id === name?.id) continue;
    if (name) named.set(name.text, value);
    else args.push(value);
  }
  return { args, named };
}

/** An array literal as an option map: string keys (and positions of unkeyed values) to values. */
function arrayEntries(node: SyntaxNode): Map<string, SyntaxNode> {
  const entries = new Map<string, SyntaxNode>();
  let position = 0;
  for (const element of namedChildren(node)) {
    if (element.type !== 'array_element_initializer') continue;
    const parts = codeChildren(element);
    const value = parts.at(-1);
    if (!value) continue;
    const key = parts.length > 1 ? parts[0] : undefined;
    const text = key?.type === 'string' ? literalContent(key, STRING_CONTENT) : undefined;
    entries.set(text ?? String(position), value);
    if (!key) position += 1;
  }
  return entries;
}

/** `A\B\C` (or `\A\B\C`, or a bare name) as segments. */
export function phpPath(node: SyntaxNode): string[] | null {
  if (node.type === 'name') return [node.text];
  if (node.type === 'relative_scope') return [node.text];
  if (node.type !== 'qualified_name') return null;
  const segments: string[] = [];
  for (const child of namedChildren(node)) {
    if (child.type === 'namespace_name') segments.push(...namespaceSegments(child));
    else if (child.type === 'name') segments.push(child.text);
  }
  return segments.length > 0 ? segments : null;
}

function namespaceSegments(node: SyntaxNode): string[] {
  return namedChildren(node)
    .filter((child) => child.type === 'name')
    .map((child) => child.text);
}

/** `RSA::ENCRYPTION_OAEP` as a path of its class and constant. */
function scopedPath(node: SyntaxNode): string[] | null {
  const scope = node.namedChild(0);
  const name = node.namedChild(1);
  const left = scope ? phpPath(scope) : null;
  return left && name ? [...left, name.text] : null;
}

/** The binding name an expression reads or assigns: `$x`, `->prop` (`$this->x`, `self::$x`). */
function bindingName(node: SyntaxNode): string | undefined {
  if (node.type === 'variable_name') return `$${node.namedChild(0)?.text ?? ''}`;
  if (
    node.type === 'member_access_expression' ||
    node.type === 'nullsafe_member_access_expression'
  ) {
    return `->${node.childForFieldName('name')?.text ?? ''}`;
  }
  if (node.type === 'scoped_property_access_expression') {
    return `->${node.childForFieldName('name')?.namedChild(0)?.text ?? ''}`;
  }
  return undefined;
}

function bindingNameOfDeclaration(node: SyntaxNode, name: SyntaxNode): string {
  const bare = name.type === 'variable_name' ? (name.namedChild(0)?.text ?? '') : name.text;
  if (node.type === 'property_element' || node.type === 'property_promotion_parameter')
    return `->${bare}`;
  if (node.type === 'simple_parameter') return `$${bare}`;
  return bare;
}

/** What a short function body returns: its first `return`. */
function returnedExpression(body: SyntaxNode | null): SyntaxNode | undefined {
  const statements = body ? codeChildren(body) : [];
  if (statements.length > 4) return undefined;
  const statement = statements.find((child) => child.type === 'return_statement');
  return statement?.namedChild(0) ?? undefined;
}
