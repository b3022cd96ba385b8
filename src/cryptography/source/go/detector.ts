/**
 * Go (.go): finds public-key cryptography by reading the syntax tree (tree-sitter). Calls
 * resolve through the file's import paths and aliases; constants of crypto packages
 * (`jwt.SigningMethodRS256`, `ssh.KeyAlgoED25519`) and type assertions to their types count
 * where they are referenced.
 */

import { treeDetector } from '../engine/detector.js';
import { pathMatcher } from '../engine/engine.js';
import {
  allOf,
  anyOf,
  apiNamePrefilter,
  keywordPrefilter,
  patternPrefilter,
} from '../engine/prefilter.js';
import { ruleSet, type Site } from '../engine/rules.js';
import { apiText, lineOf, type NodesByType, namedChildren, nodesByType } from '../engine/syntax.js';
import { member } from '../engine/values.js';
import type { SyntaxNode } from '../parser.js';
import type { SourceFileReport } from '../types.js';
import { GO_SYMMETRIC_RULES } from './api-symmetric.js';
import { GO_CALL_RULES, GO_REFERENCE_RULES } from './api-table.js';
import { GO_BINDING_TYPES, type GoEvaluator, goEvaluator, qualifiedType } from './reader.js';

const CALLS = ruleSet([...GO_CALL_RULES, ...GO_SYMMETRIC_RULES]);
const REFERENCES = ruleSet(GO_REFERENCE_RULES);

/** Every rule starts from an import of a crypto package or a JOSE library. */
const MODULES = /"crypto\/|golang\.org\/x\/crypto|jwt|jose|jwx/;

/** Packages that hold nothing but public-key cryptography: importing one is enough in Go. */
const PUBLIC_KEY_PACKAGES = [
  'crypto/rsa',
  'crypto/ecdsa',
  'crypto/ecdh',
  'crypto/ed25519',
  'crypto/dsa',
  'crypto/elliptic',
  'crypto/mlkem',
  'x/crypto/ssh',
  'x/crypto/curve25519',
  'x/crypto/ed25519',
  'nacl/box',
  'nacl/sign',
];

/** A crypto package, and a public-key package or API (not only hashes or ciphers). */
const prefilter = allOf(
  patternPrefilter(MODULES),
  anyOf(
    apiNamePrefilter([...CALLS.names, ...REFERENCES.names]),
    keywordPrefilter(PUBLIC_KEY_PACKAGES),
  ),
);

const NO_KEYWORDS: ReadonlyMap<string, SyntaxNode> = new Map();

function isPackage(node: SyntaxNode, ev: GoEvaluator): boolean {
  return node.type === 'identifier' && ev.packagePath(node.text) !== undefined;
}

function callSite(call: SyntaxNode, ev: GoEvaluator): Site | undefined {
  const callee = call.childForFieldName('function');
  const list = call.childForFieldName('arguments');
  if (!callee) return undefined;
  const args = list ? namedChildren(list).filter((node) => node.type !== 'comment') : [];
  const base = { node: call, api: apiText(callee), args, keywords: NO_KEYWORDS };
  if (callee.type !== 'selector_expression') {
    const target = ev.value(callee);
    return target.kind === 'api' ? { ...base, path: target.path, line: lineOf(callee) } : undefined;
  }
  const operand = callee.childForFieldName('operand');
  const field = callee.childForFieldName('field');
  if (!operand || !field || !CALLS.names.has(field.text)) return undefined;
  if (isPackage(operand, ev)) {
    return { ...base, path: `${ev.packagePath(operand.text)}.${field.text}`, line: lineOf(field) };
  }
  const receiver = ev.value(operand);
  const target = member(receiver, field.text);
  const path = target.kind === 'api' ? target.path : `*.${field.text}`;
  return { ...base, path, line: lineOf(field), receiverValue: receiver, receiver: operand };
}

/** `&rsa.PublicKey{N: n, E: e}` is a constructor call with keyword arguments. */
function literalSite(literal: SyntaxNode, ev: GoEvaluator): Site | undefined {
  const type = literal.childForFieldName('type');
  const qualified = qualifiedType(type);
  const path = qualified ? ev.packagePath(qualified.pkg) : undefined;
  if (!type || !qualified || !path) return undefined;
  const keywords = new Map<string, SyntaxNode>();
  const body = literal.childForFieldName('body');
  for (const element of body ? namedChildren(body) : []) {
    if (element.type !== 'keyed_element') continue;
    const key = element.namedChild(0)?.firstNamedChild;
    const value = element.namedChild(1)?.firstNamedChild;
    if (key && value) keywords.set(key.text, value);
  }
  const line = lineOf(type);
  return {
    node: literal,
    path: `new ${path}.${qualified.name}`,
    line,
    api: apiText(type),
    args: [],
    keywords,
  };
}

function referenceSites(nodes: NodesByType, ev: GoEvaluator): Site[] {
  const sites: Site[] = [];
  for (const selector of nodes.of('selector_expression')) {
    const field = selector.childForFieldName('field');
    if (!field || !REFERENCES.names.has(field.text)) continue;
    const parent = selector.parent;
    if (
      parent?.type === 'call_expression' &&
      parent.childForFieldName('function')?.id === selector.id
    )
      continue;
    const operand = selector.childForFieldName('operand');
    if (!operand || !isPackage(operand, ev)) continue;
    const path = `${ev.packagePath(operand.text)}.${field.text}`;
    sites.push({
      node: selector,
      path,
      line: lineOf(field),
      api: apiText(selector),
      args: [],
      keywords: NO_KEYWORDS,
    });
  }
  for (const type of nodes.of('qualified_type')) {
    const holder = type.parent?.type === 'pointer_type' ? type.parent.parent : type.parent;
    if (!holder || !/^(type_assertion_expression|type_case)$/.test(holder.type)) continue;
    const qualified = qualifiedType(type);
    const path = qualified ? ev.packagePath(qualified.pkg) : undefined;
    if (!qualified || !path) continue;
    sites.push({
      node: type,
      path: `${path}.${qualified.name}`,
      line: lineOf(type),
      api: apiText(type),
      args: [],
      keywords: NO_KEYWORDS,
    });
  }
  return sites;
}

const WALKED = [
  ...GO_BINDING_TYPES,
  'call_expression',
  'composite_literal',
  'selector_expression',
  'qualified_type',
];

function detectIn(root: SyntaxNode): SourceFileReport {
  const nodes = nodesByType(root, WALKED);
  const ev = goEvaluator(nodes);
  const sites: Site[] = [];
  for (const node of nodes.of('call_expression', 'composite_literal')) {
    const site = node.type === 'call_expression' ? callSite(node, ev) : literalSite(node, ev);
    if (site) sites.push(site);
  }
  const matcher = pathMatcher('go', ev);
  matcher.apply(sites, [], CALLS);
  matcher.apply([], referenceSites(nodes, ev), REFERENCES);
  return matcher.report();
}

export const goDetector = treeDetector({
  language: 'go',
  extensions: ['.go'],
  grammar: 'go',
  mayContain: prefilter,
  read: (root) => detectIn(root),
});
