/**
 * Reads a Ruby syntax tree for the detector: `include` of a namespace and constant aliases
 * (`RSA = OpenSSL::PKey::RSA`), the names bound in the file (constants, locals, instance
 * variables, optional and keyword parameter defaults, methods whose body is a literal),
 * values, and call sites with their keyword arguments.
 */

import { ImportScope } from '../engine/path-table.js';
import type { Evaluation, LanguageReader, TableSite } from '../engine/rules.js';
import { FileBindings, type NodeBinding } from '../engine/scope.js';
import { codeChildren, literalContent, namedChildren, type TypedNode } from '../engine/syntax.js';
import { binaryExpression, numberValue, UNKNOWN, type Value } from '../engine/values.js';
import type { SyntaxNode } from '../parser.js';

const STRING_CONTENT = new Set(['string_content']);
const LET = new Set(['let', 'let!', 'subject', 'subject!']);
const VARIABLES = new Set([
  'identifier',
  'constant',
  'instance_variable',
  'class_variable',
  'global_variable',
]);

/** Node types the reader indexes before matching (bindings, includes, aliases). */
export const RUBY_DECLARATIONS = [
  'assignment',
  'operator_assignment',
  'optional_parameter',
  'keyword_parameter',
  'method',
  'singleton_method',
  'class',
  'module',
] as const;

export class RubyReader implements LanguageReader {
  readonly language = 'ruby' as const;
  private readonly imports = new ImportScope();
  private readonly bindings = new FileBindings<NodeBinding>();
  private readonly modules = new Set<string>();
  private readonly callsByName = new Map<string, SyntaxNode[]>();

  /** The declarations of the file, with their types (read once, in the detector's walk). */
  index(nodes: readonly TypedNode[]): void {
    for (const { node, type } of nodes) {
      switch (type) {
        case 'assignment':
        case 'operator_assignment':
          this.addAssignment(node);
          break;
        case 'optional_parameter':
        case 'keyword_parameter': {
          const name = node.childForFieldName('name');
          const value = node.childForFieldName('value') ?? undefined;
          if (name && value) this.bindings.add(name.text, { at: node.startIndex, value });
          break;
        }
        case 'method':
        case 'singleton_method':
          this.addMethod(node);
          break;
        case 'call':
          this.addCall(node);
          break;
        default: {
          const name = node.childForFieldName('name');
          if (name) this.modules.add(name.text);
        }
      }
    }
  }

  private addAssignment(node: SyntaxNode): void {
    const left = node.childForFieldName('left');
    const right = node.childForFieldName('right');
    if (!left || !right || !VARIABLES.has(left.type)) return;
    // A constant bound to a library path is an alias: `RSA = OpenSSL::PKey::RSA`.
    const aliased = left.type === 'constant' ? constantPath(right) : null;
    if (aliased && aliased.length > 1) this.imports.alias(left.text, aliased);
    this.bindings.add(left.text, { at: node.endIndex, value: right });
  }

  /** A method's value (a literal body), and its plain parameters bound to call arguments. */
  private addMethod(node: SyntaxNode): void {
    const name = node.childForFieldName('name');
    if (!name) return;
    const value = returnedExpression(node.childForFieldName('body'));
    if (value) this.bindings.add(`${name.text}()`, { at: node.startIndex, value });
    const parameters = node.childForFieldName('parameters');
    namedChildren(parameters ?? node).forEach((parameter, index) => {
      if (parameter.type !== 'identifier' || !parameters) return;
      const argumentOf = { method: name.text, index };
      this.bindings.add(parameter.text, { at: node.startIndex, argumentOf });
    });
  }

  /**
   * Calls of the file's own methods (for their parameters), `include OpenSSL` (opens the
   * namespace), and RSpec's `let(:key) { ... }` (a method whose value is the block's).
   */
  private addCall(node: SyntaxNode): void {
    const receiver = node.childForFieldName('receiver');
    const method = node.childForFieldName('method')?.text ?? '';
    if (receiver && receiver.type !== 'self') return;
    const calls = this.callsByName.get(method);
    if (calls) calls.push(node);
    else this.callsByName.set(method, [node]);
    const list = node.childForFieldName('arguments');
    const args = list ? namedChildren(list) : [];
    if (method === 'include') {
      for (const argument of args) {
        const path = constantPath(argument);
        if (path) this.imports.open(path);
      }
    } else if (LET.has(method) && args[0]?.type === 'simple_symbol') {
      const body = node.childForFieldName('block')?.childForFieldName('body');
      const value = body ? codeChildren(body).at(-1) : undefined;
      if (value) this.bindings.add(`${args[0].text.slice(1)}()`, { at: node.startIndex, value });
    }
  }

  /** The argument the first call of `method` in the file passes at `index`. */
  private argumentValue(method: string, index: number): SyntaxNode | undefined {
    for (const call of this.callsByName.get(method) ?? []) {
      const list = call.childForFieldName('arguments');
      const argument = list ? namedChildren(list)[index] : undefined;
      if (argument) return argument;
    }
    return undefined;
  }

  expand(path: readonly string[]): string[][] {
    return this.imports.expand(path);
  }

  evaluate(node: SyntaxNode, evaluation: Evaluation): Value {
    const again = (next: SyntaxNode | null | undefined): Value => evaluation.value(next);
    const callValue = (site: TableSite): Value => evaluation.call(site);
    switch (node.type) {
      case 'string':
      case 'delimited_symbol': {
        const text = literalContent(node, STRING_CONTENT);
        return text === undefined ? UNKNOWN : { kind: 'string', value: text };
      }
      case 'simple_symbol':
        return { kind: 'string', value: node.text.slice(1) };
      case 'integer':
        return numberValue(node.text);
      case 'array':
        return again(node.namedChild(0));
      case 'parenthesized_statements':
        return again(node.lastNamedChild);
      case 'assignment':
      case 'operator_assignment':
        return again(node.childForFieldName('right'));
      case 'conditional': {
        const chosen = again(node.childForFieldName('consequence'));
        return chosen.kind === 'unknown' ? again(node.childForFieldName('alternative')) : chosen;
      }
      case 'binary':
        return binaryExpression(node, again);
      case 'call':
        return this.evaluateCall(node, again, callValue);
      case 'scope_resolution':
        return this.evaluateScoped(node, again);
      default:
        return VARIABLES.has(node.type) ? this.evaluateVariable(node, again) : UNKNOWN;
    }
  }

  private evaluateVariable(node: SyntaxNode, again: (next: SyntaxNode) => Value): Value {
    const binding = this.bindings.resolve(node.text, node.startIndex);
    if (binding?.value) return again(binding.value);
    if (binding?.argumentOf) {
      const { method, index } = binding.argumentOf;
      const argument = this.argumentValue(method, index);
      return argument ? again(argument) : UNKNOWN;
    }
    // A bare identifier may be a method of the file called without parentheses.
    const method =
      node.type === 'identifier'
        ? this.bindings.resolve(`${node.text}()`, node.startIndex)
        : undefined;
    if (method?.value) return again(method.value);
    return node.type === 'constant' ? { kind: 'path', segments: [node.text] } : UNKNOWN;
  }

  /** `Config::BITS` of a module in the file is its constant; otherwise a library path. */
  private evaluateScoped(node: SyntaxNode, again: (next: SyntaxNode) => Value): Value {
    const path = constantPath(node);
    if (!path) return UNKNOWN;
    const [head] = path;
    if (path.length === 2 && head && this.modules.has(head)) {
      const binding = this.bindings.resolve(path[1] ?? '', node.startIndex);
      if (binding?.value) return again(binding.value);
    }
    return { kind: 'path', segments: path };
  }

  private evaluateCall(
    node: SyntaxNode,
    again: (next: SyntaxNode) => Value,
    callValue: (site: TableSite) => Value,
  ): Value {
    const receiver = node.childForFieldName('receiver');
    const method = node.childForFieldName('method')?.text ?? '';
    const own =
      !receiver ||
      receiver.type === 'self' ||
      receiver.text === 'self.class' ||
      this.modules.has(receiver.text);
    const body = own ? this.bindings.resolve(`${method}()`, node.startIndex) : undefined;
    if (body?.value && !node.childForFieldName('arguments')) return again(body.value);
    const site = this.siteOf(node);
    return site ? callValue(site) : UNKNOWN;
  }

  siteOf(node: SyntaxNode): TableSite | null {
    if (node.type !== 'call') return null;
    const nameNode = node.childForFieldName('method');
    if (!nameNode) return null;
    const receiver = node.childForFieldName('receiver');
    const receiverPath = receiver ? constantPath(receiver) : null;
    const path = receiverPath
      ? [...receiverPath, nameNode.text]
      : receiver
        ? null
        : [nameNode.text];
    const { args, named } = argumentsOf(node.childForFieldName('arguments'));
    const callee = receiver ?? nameNode;
    return {
      node,
      callee,
      nameNode,
      segments: path,
      receiver,
      method: nameNode.text,
      args,
      keywords: named,
    };
  }

  calleeName(node: SyntaxNode): string | undefined {
    return node.childForFieldName('method')?.text;
  }

  pathOf(node: SyntaxNode): string[] | null {
    return constantPath(node);
  }
}

/** `OpenSSL::PKey::RSA` (or `::OpenSSL::PKey`) as segments; null for anything else. */
export function constantPath(node: SyntaxNode): string[] | null {
  if (node.type === 'constant') return [node.text];
  if (node.type !== 'scope_resolution') return null;
  const scope = node.childForFieldName('scope');
  const name = node.childForFieldName('name');
  if (!name) return null;
  const left = scope ? constantPath(scope) : [];
  return left ? [...left, name.text] : null;
}

/** Positional arguments, and keyword arguments or a trailing hash's pairs by key. */
function argumentsOf(list: SyntaxNode | null): {
  args: SyntaxNode[];
  named: Map<string, SyntaxNode>;
} {
  const args: SyntaxNode[] = [];
  const named = new Map<string, SyntaxNode>();
  for (const argument of list ? codeChildren(list) : []) {
    if (argument.type === 'pair') addPair(argument, named);
    else if (argument.type === 'hash') {
      for (const pair of namedChildren(argument)) if (pair.type === 'pair') addPair(pair, named);
      args.push(argument);
    } else if (argument.type !== 'block_argument') args.push(argument);
  }
  return { args, named };
}

function addPair(pair: SyntaxNode, named: Map<string, SyntaxNode>): void {
  const key = pair.childForFieldName('key');
  const value = pair.childForFieldName('value');
  if (!key || !value) return;
  const name =
    key.type === 'string' ? literalContent(key, STRING_CONTENT) : key.text.replace(/^:|:$/g, '');
  if (name) named.set(name, value);
}

/** What a short method body returns: its last expression or its `return`. */
function returnedExpression(body: SyntaxNode | null): SyntaxNode | undefined {
  const statements = body ? codeChildren(body) : [];
  if (statements.length > 3) return undefined;
  const last = statements.at(-1);
  if (last?.type !== 'return') return last ?? undefined;
  return last.namedChild(0)?.namedChild(0) ?? undefined;
}
