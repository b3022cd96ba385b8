/**
 * Reads a C# syntax tree for the detector: `using` directives and aliases, the names bound in
 * the file (fields, constants, properties, locals, parameters, expression-bodied or one-return
 * methods), the value of an expression, and call sites (invocations, `new`, and property
 * assignments such as `rsa.KeySize = 1024`, read as a call of the property).
 */

import { ImportScope } from '../engine/path-table.js';
import type { ApiTables, Evaluation, LanguageReader, TableSite } from '../engine/rules.js';
import { FileBindings, type NodeBinding } from '../engine/scope.js';
import { codeChildren, literalContent, namedChildren, type TypedNode } from '../engine/syntax.js';
import { binaryExpression, numberValue, UNKNOWN, type Value } from '../engine/values.js';
import type { SyntaxNode } from '../parser.js';

const STRING_CONTENT = new Set(['string_literal_content', 'string_literal_fragment']);
const WRAPPERS = new Set(['parenthesized_expression', 'await_expression', 'checked_expression']);
const SELF = new Set(['this', 'base']);

/** Node types the reader indexes before matching (bindings and imports). */
export const CSHARP_DECLARATIONS = [
  'using_directive',
  'class_declaration',
  'struct_declaration',
  'record_declaration',
  'variable_declarator',
  'parameter',
  'declaration_pattern',
  'recursive_pattern',
  'property_declaration',
  'method_declaration',
  'assignment_expression',
] as const;

export class CSharpReader implements LanguageReader {
  readonly language = 'csharp' as const;
  private readonly imports = new ImportScope();
  private readonly bindings = new FileBindings<NodeBinding>();
  private readonly classes = new Set<string>();

  constructor(private readonly tables: ApiTables) {}

  /** The declarations of the file, with their types (read once, in the detector's walk). */
  index(nodes: readonly TypedNode[]): void {
    for (const { node, type } of nodes) {
      switch (type) {
        case 'using_directive':
          this.addUsing(node);
          break;
        case 'class_declaration':
        case 'struct_declaration':
        case 'record_declaration': {
          const name = node.childForFieldName('name');
          if (name) this.classes.add(name.text);
          break;
        }
        case 'assignment_expression':
          this.addAssignment(node);
          break;
        default:
          this.addDeclaration(node, type);
      }
    }
  }

  private addUsing(node: SyntaxNode): void {
    const alias = node.childForFieldName('name');
    const target = namedChildren(node).find((child) => child.id !== alias?.id);
    const path = target ? qualifiedName(target) : null;
    if (!path) return;
    if (alias) this.imports.alias(alias.text, path);
    else this.imports.open(path);
  }

  private addDeclaration(node: SyntaxNode, kind: string): void {
    const name = node.childForFieldName('name');
    if (!name) return;
    const at = node.startIndex;
    if (kind === 'variable_declarator') {
      const type = node.parent?.childForFieldName('type') ?? undefined;
      this.bindings.add(name.text, { at, value: declaratorValue(node, name), type });
    } else if (kind === 'parameter') {
      const value = namedChildren(node).find((c) => c.id !== name.id && c.type !== 'modifier');
      const type = node.childForFieldName('type') ?? undefined;
      this.bindings.add(name.text, { at, value: value?.id === type?.id ? undefined : value, type });
    } else if (kind === 'declaration_pattern' || kind === 'recursive_pattern') {
      this.bindings.add(name.text, { at, type: node.childForFieldName('type') ?? undefined });
    } else if (kind === 'property_declaration') {
      const type = node.childForFieldName('type') ?? undefined;
      this.bindings.add(name.text, { at, value: propertyValue(node), type });
    } else if (kind === 'method_declaration') {
      const value = returnedExpression(node.childForFieldName('body'));
      if (value) this.bindings.add(`${name.text}()`, { at, value });
    }
  }

  private addAssignment(node: SyntaxNode): void {
    if (node.childForFieldName('operator')?.text !== '=') return;
    const left = node.childForFieldName('left');
    const right = node.childForFieldName('right') ?? undefined;
    if (!left || !right) return;
    if (left.type === 'identifier')
      this.bindings.add(left.text, { at: node.endIndex, value: right });
    const path = left.type === 'member_access_expression' ? qualifiedName(left) : null;
    if (path?.length === 2 && SELF.has(path[0] ?? '')) {
      this.bindings.add(path[1] ?? '', { at: node.endIndex, value: right });
    }
  }

  expand(path: readonly string[]): string[][] {
    return this.imports.expand(path);
  }

  evaluate(node: SyntaxNode, evaluation: Evaluation): Value {
    const again = (next: SyntaxNode | null | undefined): Value => evaluation.value(next);
    const callValue = (site: TableSite): Value => evaluation.call(site);
    switch (node.type) {
      case 'string_literal': {
        const text = literalContent(node, STRING_CONTENT);
        return text === undefined ? UNKNOWN : { kind: 'string', value: text };
      }
      case 'verbatim_string_literal':
        return { kind: 'string', value: node.text.slice(2, -1).replaceAll('""', '"') };
      case 'raw_string_literal':
        return { kind: 'string', value: node.text.replace(/^"+|"+$/g, '') };
      case 'integer_literal':
        return numberValue(node.text);
      case 'identifier':
      case 'member_access_expression':
        return this.evaluateName(node, again);
      case 'invocation_expression':
      case 'object_creation_expression': {
        const own = this.ownMethodValue(node) ?? namedCurveArgument(node);
        if (own) return again(own);
        const site = this.siteOf(node);
        return site ? callValue(site) : UNKNOWN;
      }
      case 'cast_expression':
      case 'as_expression': {
        const type = node.childForFieldName(node.type === 'as_expression' ? 'right' : 'type');
        const typed = type ? this.typeValue(type) : UNKNOWN;
        return typed.kind === 'key' ? typed : again(node.childForFieldName('value'));
      }
      case 'binary_expression':
        return binaryExpression(node, again);
      default:
        return WRAPPERS.has(node.type) ? again(node.namedChild(0)) : UNKNOWN;
    }
  }

  /** A name: a binding in the file, else a qualified name (a library constant or type). */
  private evaluateName(node: SyntaxNode, again: (next: SyntaxNode) => Value): Value {
    const path = qualifiedName(node);
    if (!path) return UNKNOWN;
    const name = this.localName(path);
    if (name !== undefined) {
      const binding = this.bindings.resolve(name, node.startIndex);
      if (binding?.value) return again(binding.value);
      if (binding?.type) return this.typeValue(binding.type);
      if (binding) return UNKNOWN;
    }
    return { kind: 'path', segments: path };
  }

  /** The file-scope name a written name refers to: `x`, `this.x`, `Settings.X` (own class). */
  private localName(path: string[]): string | undefined {
    const [head, second] = path;
    if (path.length === 1) return head;
    if (path.length === 2 && (SELF.has(head ?? '') || this.classes.has(head ?? ''))) return second;
    return undefined;
  }

  /** The value a declared type gives: a key object for the key types in the tables. */
  private typeValue(type: SyntaxNode): Value {
    const inner = type.type === 'nullable_type' ? type.namedChild(0) : type;
    const path = inner ? qualifiedName(inner) : null;
    const entry = path ? this.tables.types.lookup(path, this.expand(path)) : undefined;
    if (!entry) return UNKNOWN;
    const value: Value = { kind: 'key', algorithm: entry.algorithm, curve: entry.curve };
    if (entry.material) value.material = true;
    return value;
  }

  /** The returned expression of a method of this file called by its bare or `this.` name. */
  private ownMethodValue(node: SyntaxNode): SyntaxNode | undefined {
    if (node.type !== 'invocation_expression') return undefined;
    const fn = node.childForFieldName('function');
    const path = fn ? qualifiedName(fn) : null;
    const name = path ? this.localName(path) : undefined;
    if (name === undefined) return undefined;
    return this.bindings.resolve(`${name}()`, node.startIndex)?.value;
  }

  siteOf(node: SyntaxNode): TableSite | null {
    if (node.type === 'object_creation_expression') return creationSite(node);
    if (node.type === 'assignment_expression') return propertySite(node);
    if (node.type !== 'invocation_expression') return null;
    const callee = node.childForFieldName('function');
    if (!callee) return null;
    const { named, args } = argumentsOf(node.childForFieldName('arguments'));
    if (callee.type === 'conditional_access_expression') {
      const binding = callee.namedChildren.find((c) => c?.type === 'member_binding_expression');
      const nameNode = binding?.childForFieldName('name');
      if (!nameNode) return null;
      const receiver = callee.childForFieldName('condition');
      return {
        node,
        callee,
        nameNode,
        segments: null,
        receiver,
        method: simpleName(nameNode),
        args,
        keywords: named,
      };
    }
    const nameNode =
      callee.type === 'member_access_expression' ? callee.childForFieldName('name') : callee;
    if (!nameNode) return null;
    const receiver =
      callee.type === 'member_access_expression' ? callee.childForFieldName('expression') : null;
    const path = qualifiedName(callee);
    return {
      node,
      callee,
      nameNode,
      segments: path,
      receiver,
      method: simpleName(nameNode),
      args,
      keywords: named,
    };
  }

  calleeName(node: SyntaxNode): string | undefined {
    if (node.type === 'object_creation_expression') return 'new';
    if (node.type === 'assignment_expression') {
      const left = node.childForFieldName('left');
      return left?.type === 'member_access_expression'
        ? left.childForFieldName('name')?.text
        : undefined;
    }
    let callee = node.childForFieldName('function');
    if (callee?.type === 'conditional_access_expression') {
      callee = callee.namedChildren.find((c) => c?.type === 'member_binding_expression') ?? null;
    }
    if (
      callee?.type === 'member_access_expression' ||
      callee?.type === 'member_binding_expression'
    ) {
      callee = callee.childForFieldName('name');
    }
    return callee ? simpleName(callee) : undefined;
  }

  /** The qualified name of a node, exported for the detector's constant references. */
  pathOf(node: SyntaxNode): string[] | null {
    return qualifiedName(node);
  }
}

/** `ECCurve.CreateFromFriendlyName(name)` and `ECCurve.CreateFromValue(oid)` are their argument. */
function namedCurveArgument(node: SyntaxNode): SyntaxNode | undefined {
  const fn = node.childForFieldName('function');
  const path = fn ? qualifiedName(fn) : null;
  if (
    path?.at(-2) !== 'ECCurve' ||
    !/^CreateFrom(FriendlyName|Value|Oid)$/.test(path.at(-1) ?? '')
  ) {
    return undefined;
  }
  return argumentsOf(node.childForFieldName('arguments')).args[0];
}

function creationSite(node: SyntaxNode): TableSite | null {
  const type = node.childForFieldName('type');
  const written = type ? qualifiedName(type) : null;
  if (!type || !written) return null;
  const nameNode = type.type === 'qualified_name' ? (type.childForFieldName('name') ?? type) : type;
  const { named, args } = argumentsOf(node.childForFieldName('arguments'));
  const path = [...written, 'new'];
  return {
    node,
    callee: type,
    nameNode,
    segments: path,
    receiver: null,
    method: 'new',
    args,
    keywords: named,
  };
}

/** `x.KeySize = 1024` as a call of the property `KeySize` on `x` with one argument. */
function propertySite(node: SyntaxNode): TableSite | null {
  const left = node.childForFieldName('left');
  const right = node.childForFieldName('right');
  if (left?.type !== 'member_access_expression' || !right) return null;
  const nameNode = left.childForFieldName('name');
  const receiver = left.childForFieldName('expression');
  if (!nameNode || !receiver) return null;
  const method = nameNode.text;
  return {
    node,
    callee: left,
    nameNode,
    segments: null,
    receiver,
    method,
    args: [right],
    keywords: new Map(),
  };
}

function argumentsOf(list: SyntaxNode | null): {
  args: SyntaxNode[];
  named: Map<string, SyntaxNode>;
} {
  const args: SyntaxNode[] = [];
  const named = new Map<string, SyntaxNode>();
  for (const argument of list ? namedChildren(list) : []) {
    if (argument.type !== 'argument') continue;
    const name = argument.childForFieldName('name');
    const value = argument.lastNamedChild;
    if (!value || value.id === name?.id) continue;
    if (name) named.set(name.text, value);
    else args.push(value);
  }
  return { args, named };
}

function simpleName(node: SyntaxNode): string {
  return node.type === 'generic_name' ? (node.namedChild(0)?.text ?? '') : node.text;
}

/** `A.B.C` as segments, for identifiers, qualified and member-access names (generics dropped). */
export function qualifiedName(node: SyntaxNode): string[] | null {
  switch (node.type) {
    case 'identifier':
    case 'predefined_type':
      return [node.text];
    case 'this':
    case 'base':
      return [node.type];
    case 'generic_name':
      return [simpleName(node)];
    case 'alias_qualified_name': {
      const name = node.childForFieldName('name');
      return name ? qualifiedName(name) : null;
    }
    case 'qualified_name':
    case 'member_access_expression': {
      const head = node.childForFieldName(
        node.type === 'qualified_name' ? 'qualifier' : 'expression',
      );
      const name = node.childForFieldName('name');
      const left = head ? qualifiedName(head) : null;
      return left && name ? [...left, simpleName(name)] : null;
    }
    default:
      return null;
  }
}

function declaratorValue(node: SyntaxNode, name: SyntaxNode): SyntaxNode | undefined {
  const value = node.lastNamedChild;
  return value && value.id !== name.id && value.type !== 'bracketed_argument_list'
    ? value
    : undefined;
}

function propertyValue(node: SyntaxNode): SyntaxNode | undefined {
  const value = node.childForFieldName('value');
  if (value?.type === 'arrow_expression_clause') return value.namedChild(0) ?? undefined;
  if (value) return value;
  const accessors = node.childForFieldName('accessors');
  for (const accessor of accessors ? namedChildren(accessors) : []) {
    if (accessor.childForFieldName('name')?.text !== 'get') continue;
    return returnedExpression(accessor.childForFieldName('body'));
  }
  return undefined;
}

/** What a small body returns: an arrow clause's expression or a short block's first return. */
function returnedExpression(body: SyntaxNode | null): SyntaxNode | undefined {
  if (!body) return undefined;
  if (body.type === 'arrow_expression_clause') return body.namedChild(0) ?? undefined;
  const statements = body.type === 'block' ? codeChildren(body) : [];
  if (statements.length > 4) return undefined;
  const statement = statements.find((child) => child.type === 'return_statement');
  return statement?.namedChild(0) ?? undefined;
}
