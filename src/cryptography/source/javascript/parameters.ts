/**
 * Follows a function parameter to the arguments the same file passes for it: in
 * `function makeKeys(type) { return generateKeyPairSync(type) }` called as `makeKeys('ec')`, the
 * key type is 'ec'. Only calls by the function's own name in the file count.
 */

import { namedChildren, type TypedNode } from '../engine/syntax.js';
import type { SyntaxNode } from '../parser.js';

const FUNCTIONS = new Set([
  'function_declaration',
  'function_expression',
  'function',
  'arrow_function',
  'generator_function_declaration',
]);

function parameterName(parameter: SyntaxNode): string | undefined {
  if (parameter.type === 'identifier') return parameter.text;
  const pattern =
    parameter.childForFieldName('pattern') ?? parameter.childForFieldName('left') ?? undefined;
  return pattern?.type === 'identifier' ? pattern.text : undefined;
}

function functionName(fn: SyntaxNode): string | undefined {
  const own = fn.childForFieldName('name');
  if (own) return own.text;
  const parent = fn.parent;
  if (parent?.type === 'variable_declarator') return parent.childForFieldName('name')?.text;
  return undefined;
}

function argumentsOf(call: SyntaxNode): SyntaxNode[] {
  const args = call.childForFieldName('arguments');
  return args ? namedChildren(args).filter((node) => node.type !== 'comment') : [];
}

/** The enclosing function that declares `identifier` as a parameter, and the parameter's index. */
function declaringFunction(identifier: SyntaxNode): [SyntaxNode, number] | undefined {
  for (let fn = identifier.parent; fn; fn = fn.parent) {
    if (!FUNCTIONS.has(fn.type)) continue;
    const parameters = fn.childForFieldName('parameters') ?? fn.childForFieldName('parameter');
    if (!parameters) continue;
    const list = parameters.type === 'identifier' ? [parameters] : namedChildren(parameters);
    const index = list.findIndex((parameter) => parameterName(parameter) === identifier.text);
    if (index >= 0) return [fn, index];
  }
  return undefined;
}

/**
 * The argument nodes the file's calls pass for the parameter `identifier` names, if any. The
 * calls come with their types, and `text` is the file's: a call is looked at only when the file
 * spells `name` where it starts, which costs no call into WebAssembly.
 */
export function argumentsForParameter(
  identifier: SyntaxNode,
  calls: readonly TypedNode[],
  text: string,
): SyntaxNode[] {
  const declaring = declaringFunction(identifier);
  if (!declaring) return [];
  const [fn, index] = declaring;
  const name = functionName(fn);
  if (!name) return [];
  const found: SyntaxNode[] = [];
  for (const { node: call, type } of calls) {
    if (type !== 'call_expression' || !text.startsWith(name, call.startIndex)) continue;
    const callee = call.childForFieldName('function');
    if (callee?.type !== 'identifier' || callee.text !== name) continue;
    const argument = argumentsOf(call)[index];
    if (argument) found.push(argument);
  }
  return found;
}
