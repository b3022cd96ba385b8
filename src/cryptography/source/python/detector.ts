/**
 * Python (.py, .pyw, .pyi is left out: stubs hold no calls): finds public-key cryptography by
 * reading the syntax tree (tree-sitter), resolving each call's callee through the file's
 * imports and bindings to a canonical path the API tables know.
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
import { apiText, lineOf, namedChildren, nodesByType } from '../engine/syntax.js';
import type { SyntaxNode } from '../parser.js';
import type { SourceFileReport } from '../types.js';
import { PYTHON_LIBRARY_RULES } from './api-libraries.js';
import { PYCA_RULES } from './api-pyca.js';
import {
  canonicalMember,
  PYTHON_BINDING_TYPES,
  type PythonEvaluator,
  pythonEvaluator,
} from './reader.js';

const RULES = ruleSet([...PYCA_RULES, ...PYTHON_LIBRARY_RULES]);

/** Every rule starts from an import of one of these modules. */
const MODULES = /cryptography|Crypto|ecdsa|paramiko|jwt|jose|jws|hashlib|hmac|nacl|rsa/;

/** Modules that hold nothing but public-key cryptography: importing one is enough. */
const PUBLIC_KEY_MODULES = ['asymmetric', 'PublicKey', 'Signature', 'PKCS1_OAEP', 'PKCS1_v1_5'];

/**
 * A crypto module, and an API or public-key module of it some rule matches (hashes and ciphers
 * included: they go into the CBOM, without a finding).
 */
const prefilter = allOf(
  patternPrefilter(MODULES),
  anyOf(apiNamePrefilter(RULES.names), keywordPrefilter(PUBLIC_KEY_MODULES)),
);

function argumentsOf(call: SyntaxNode, ev: PythonEvaluator) {
  const args: SyntaxNode[] = [];
  const keywords = new Map<string, SyntaxNode>();
  const list = call.childForFieldName('arguments');
  if (list?.type !== 'argument_list') return { args, keywords };
  for (const child of namedChildren(list)) {
    if (child.type === 'keyword_argument') {
      const name = child.childForFieldName('name');
      const value = child.childForFieldName('value');
      if (name && value) keywords.set(name.text, value);
    } else if (child.type === 'dictionary_splat' && child.firstNamedChild) {
      // `**options` with options a dict literal in the file.
      const spread = ev.value(child.firstNamedChild);
      if (spread.kind === 'object')
        for (const [key, value] of spread.entries) keywords.set(key, value);
    } else if (child.type !== 'comment' && child.type !== 'list_splat') args.push(child);
  }
  return { args, keywords };
}

function siteOf(call: SyntaxNode, ev: PythonEvaluator): Site | undefined {
  const callee = call.childForFieldName('function');
  if (!callee) return undefined;
  let located: Pick<Site, 'path' | 'line' | 'receiverValue' | 'receiver'>;
  if (callee.type === 'attribute') {
    const object = callee.childForFieldName('object');
    const attribute = callee.childForFieldName('attribute');
    if (!object || !attribute || !RULES.names.has(attribute.text)) return undefined;
    const receiver = ev.value(object);
    const target = canonicalMember(receiver, attribute.text);
    const path = target.kind === 'api' ? target.path : `*.${attribute.text}`;
    located = { path, line: lineOf(attribute), receiverValue: receiver, receiver: object };
  } else {
    const target = ev.value(callee);
    if (target.kind !== 'api') return undefined;
    located = { path: target.path, line: lineOf(callee) };
  }
  if (RULES.match(located.path).length === 0) return undefined;
  return { ...located, node: call, api: apiText(callee), ...argumentsOf(call, ev) };
}

function detectIn(root: SyntaxNode): SourceFileReport {
  const nodes = nodesByType(root, [...PYTHON_BINDING_TYPES, 'call']);
  const ev = pythonEvaluator(nodes);
  const sites: Site[] = [];
  for (const call of nodes.of('call')) {
    const site = siteOf(call, ev);
    if (site) sites.push(site);
  }
  const matcher = pathMatcher('python', ev);
  matcher.apply(sites, [], RULES);
  return matcher.report();
}

export const pythonDetector = treeDetector({
  language: 'python',
  extensions: ['.py', '.pyw'],
  grammar: 'python',
  mayContain: prefilter,
  read: (root) => detectIn(root),
});
