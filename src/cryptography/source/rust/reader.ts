/**
 * Reads a Rust syntax tree for the detector: `use` declarations (nested lists, `self`,
 * `as` aliases, globs), the names bound in the file (const and static items, `let`, parameters,
 * struct fields read through `self`, functions whose body is a literal), values and call sites.
 */

import { ImportScope } from '../engine/path-table.js';
import type { ApiTables, Evaluation, LanguageReader, TableSite } from '../engine/rules.js';
import { FileBindings, type NodeBinding } from '../engine/scope.js';
import { codeChildren, literalContent, namedChildren, type TypedNode } from '../engine/syntax.js';
import { binaryExpression, numberValue, UNKNOWN, type Value } from '../engine/values.js';
import type { SyntaxNode } from '../parser.js';

const STRING_CONTENT = new Set(['string_content']);
const WRAPPERS = new Set([
  'reference_expression',
  'try_expression',
  'parenthesized_expression',
  'await_expression',
  'type_cast_expression',
]);
const PATH_PREFIXES = new Set(['crate', 'self', 'super']);

/** Node types the reader indexes before matching (bindings and imports). */
export const RUST_DECLARATIONS = [
  'use_declaration',
  'const_item',
  'static_item',
  'let_declaration',
  'parameter',
  'field_declaration',
  'function_item',
  'struct_item',
  'impl_item',
  'assignment_expression',
] as const;

export class RustReader implements LanguageReader {
  readonly language = 'rust' as const;
  private readonly imports = new ImportScope();
  private readonly bindings = new FileBindings<NodeBinding>();
  /** Types declared in the file (`struct`, `impl` targets): `Type::f()` may be their function. */
  private readonly types = new Set<string>();

  constructor(private readonly tables: ApiTables) {}

  /** The declarations of the file, with their types (read once, in the detector's walk). */
  index(nodes: readonly TypedNode[]): void {
    for (const { node, type: kind } of nodes) {
      if (kind === 'use_declaration') {
        const argument = node.childForFieldName('argument');
        if (argument) this.addUse(argument, []);
      } else if (kind === 'struct_item' || kind === 'impl_item') {
        const type = node.childForFieldName(kind === 'struct_item' ? 'name' : 'type');
        if (type?.type === 'type_identifier') this.types.add(type.text);
      } else if (kind === 'function_item') {
        const name = node.childForFieldName('name');
        const value = tailExpression(node.childForFieldName('body'));
        if (name && value) this.bindings.add(`${name.text}()`, { at: node.startIndex, value });
      } else {
        this.addBinding(node, kind);
      }
    }
  }

  /** One `use` tree, with the path prefix of the lists it is nested in. */
  private addUse(node: SyntaxNode, prefix: string[]): void {
    switch (node.type) {
      case 'identifier':
      case 'scoped_identifier': {
        const path = [...prefix, ...(rustPath(node) ?? [])];
        this.imports.alias(path.at(-1) ?? '', path);
        break;
      }
      case 'self':
        this.imports.alias(prefix.at(-1) ?? '', prefix);
        break;
      case 'use_as_clause': {
        const path = node.childForFieldName('path');
        const alias = node.childForFieldName('alias');
        const full = path ? [...prefix, ...(rustPath(path) ?? [])] : [];
        if (alias && alias.text !== '_') this.imports.alias(alias.text, full);
        break;
      }
      case 'use_wildcard': {
        const path = node.namedChild(0);
        this.imports.open([...prefix, ...((path && rustPath(path)) ?? [])]);
        break;
      }
      case 'scoped_use_list':
      case 'use_list': {
        const path = node.childForFieldName('path');
        const inner = [...prefix, ...((path && rustPath(path)) ?? [])];
        const list = node.type === 'use_list' ? node : node.childForFieldName('list');
        for (const child of list ? namedChildren(list) : []) this.addUse(child, inner);
        break;
      }
    }
  }

  private addBinding(node: SyntaxNode, kind: string): void {
    // A `let` or an assignment binds after itself: `let bits = bits * 2` reads the earlier one.
    const after = kind === 'let_declaration' || kind === 'assignment_expression';
    const at = after ? node.endIndex : node.startIndex;
    if (kind === 'assignment_expression') {
      const left = node.childForFieldName('left');
      const name = left && bindingName(left);
      if (name)
        this.bindings.add(name, { at, value: node.childForFieldName('right') ?? undefined });
      return;
    }
    const target = node.childForFieldName(
      kind === 'let_declaration' || kind === 'parameter' ? 'pattern' : 'name',
    );
    if (target?.type !== 'identifier' && target?.type !== 'field_identifier') return;
    const value = node.childForFieldName('value') ?? undefined;
    const type = node.childForFieldName('type') ?? undefined;
    // Struct fields live in their own namespace: `.name`, read as `x.name` on any value.
    const name = kind === 'field_declaration' ? `.${target.text}` : target.text;
    this.bindings.add(name, { at, value, type });
  }

  expand(path: readonly string[]): string[][] {
    return this.imports.expand(path);
  }

  evaluate(node: SyntaxNode, evaluation: Evaluation): Value {
    const again = (next: SyntaxNode | null | undefined): Value => evaluation.value(next);
    const callValue = (site: TableSite): Value => evaluation.call(site);
    switch (node.type) {
      case 'string_literal':
      case 'raw_string_literal': {
        const text = literalContent(node, STRING_CONTENT);
        return text === undefined ? UNKNOWN : { kind: 'string', value: text };
      }
      case 'integer_literal':
        return numberValue(node.text);
      case 'identifier':
      case 'scoped_identifier':
      case 'field_expression':
        return this.evaluateName(node, again);
      case 'call_expression': {
        const own = this.ownFunctionValue(node);
        if (own) return again(own);
        const site = this.siteOf(node);
        return site ? callValue(site) : UNKNOWN;
      }
      case 'binary_expression':
        return binaryExpression(node, again);
      default:
        return WRAPPERS.has(node.type)
          ? again(node.childForFieldName('value') ?? node.namedChild(0))
          : UNKNOWN;
    }
  }

  private evaluateName(node: SyntaxNode, again: (next: SyntaxNode) => Value): Value {
    const name = bindingName(node);
    if (name !== undefined) {
      const binding =
        this.bindings.resolve(name, node.startIndex) ??
        (name.startsWith('.') ? this.bindings.resolve(name.slice(1), node.startIndex) : undefined);
      if (binding?.value) return again(binding.value);
      if (binding?.type) return this.typeValue(binding.type);
      if (binding) return UNKNOWN;
    }
    const path = rustPath(node);
    return path ? { kind: 'path', segments: path } : UNKNOWN;
  }

  private typeValue(type: SyntaxNode): Value {
    let inner: SyntaxNode | null = type;
    while (inner && (inner.type === 'reference_type' || inner.type === 'generic_type')) {
      inner = inner.childForFieldName('type');
    }
    const path = inner ? rustPath(inner) : null;
    const entry = path ? this.tables.types.lookup(path, this.expand(path)) : undefined;
    return entry ? { kind: 'key', algorithm: entry.algorithm, curve: entry.curve } : UNKNOWN;
  }

  /** The body of a function of this file called as `f()`, `Self::f()` or `self.f()`. */
  private ownFunctionValue(node: SyntaxNode): SyntaxNode | undefined {
    const fn = node.childForFieldName('function');
    let name = fn ? bindingName(fn) : undefined;
    if (fn?.type === 'scoped_identifier') {
      const head = fn.childForFieldName('path')?.text ?? '';
      if (head === 'Self' || this.types.has(head)) name = fn.childForFieldName('name')?.text;
    }
    if (name === undefined) return undefined;
    const bare = name.startsWith('.') ? name.slice(1) : name;
    return this.bindings.resolve(`${bare}()`, node.startIndex)?.value;
  }

  siteOf(node: SyntaxNode): TableSite | null {
    if (node.type !== 'call_expression') return null;
    let callee = node.childForFieldName('function');
    if (!callee) return null;
    const args = codeChildren(node.childForFieldName('arguments') ?? node);
    const named = new Map<string, SyntaxNode>();
    if (callee.type === 'generic_function') callee = callee.childForFieldName('function') ?? callee;
    if (callee.type === 'field_expression') {
      const nameNode = callee.childForFieldName('field');
      const receiver = callee.childForFieldName('value');
      if (!nameNode) return null;
      return {
        node,
        callee,
        nameNode,
        segments: null,
        receiver,
        method: nameNode.text,
        args,
        keywords: named,
      };
    }
    const path = rustPath(callee);
    const nameNode =
      callee.type === 'scoped_identifier' ? callee.childForFieldName('name') : callee;
    if (!path || !nameNode) return null;
    return {
      node,
      callee,
      nameNode,
      segments: path,
      receiver: null,
      method: nameNode.text,
      args,
      keywords: named,
    };
  }

  calleeName(node: SyntaxNode): string | undefined {
    let callee = node.childForFieldName('function');
    if (callee?.type === 'generic_function') callee = callee.childForFieldName('function');
    if (callee?.type === 'field_expression') return callee.childForFieldName('field')?.text;
    if (callee?.type === 'scoped_identifier') return callee.childForFieldName('name')?.text;
    return callee?.type === 'identifier' ? callee.text : undefined;
  }

  pathOf(node: SyntaxNode): string[] | null {
    return rustPath(node);
  }
}

/** `a::b::C` as segments; generics dropped, `crate`/`self`/`super` prefixes dropped. */
export function rustPath(node: SyntaxNode): string[] | null {
  switch (node.type) {
    case 'identifier':
    case 'type_identifier':
    case 'field_identifier':
      return [node.text];
    case 'crate':
    case 'self':
    case 'super':
      return [];
    case 'generic_type':
    case 'generic_function': {
      const inner = node.childForFieldName(node.type === 'generic_type' ? 'type' : 'function');
      return inner ? rustPath(inner) : null;
    }
    case 'bracketed_type': {
      const qualified = node.namedChild(0);
      const type =
        qualified?.type === 'qualified_type' ? qualified.childForFieldName('type') : qualified;
      return type ? rustPath(type) : null;
    }
    case 'scoped_identifier':
    case 'scoped_type_identifier': {
      const head = node.childForFieldName('path');
      const name = node.childForFieldName('name');
      const left = head ? rustPath(head) : [];
      if (!left || !name) return null;
      const path = [...left, name.text];
      return PATH_PREFIXES.has(path[0] ?? '') ? path.slice(1) : path;
    }
    default:
      return null;
  }
}

/** The file-scope name an expression reads: `x`, `self.x`, `Self::X`, `Type::X` of a const. */
function bindingName(node: SyntaxNode): string | undefined {
  if (node.type === 'identifier') return node.text;
  if (node.type === 'field_expression') {
    const field = node.childForFieldName('field');
    return field?.type === 'field_identifier' ? `.${field.text}` : undefined;
  }
  if (node.type === 'scoped_identifier') {
    const head = node.childForFieldName('path');
    const name = node.childForFieldName('name')?.text;
    if (head?.type === 'identifier' && head.text === 'Self') return name;
    if (head?.type === 'identifier' && name && /^[A-Z][A-Z0-9_]*$/.test(name)) return name;
  }
  return undefined;
}

/** The value a small function body gives: its tail expression or its first `return`. */
function tailExpression(body: SyntaxNode | null): SyntaxNode | undefined {
  const statements = body?.type === 'block' ? codeChildren(body) : [];
  if (statements.length > 3) return undefined;
  const last = statements.at(-1);
  if (!last) return undefined;
  if (last.type === 'expression_statement') {
    const inner = last.namedChild(0);
    return inner?.type === 'return_expression' ? (inner.namedChild(0) ?? undefined) : undefined;
  }
  return last.type === 'return_expression' ? (last.namedChild(0) ?? undefined) : last;
}
