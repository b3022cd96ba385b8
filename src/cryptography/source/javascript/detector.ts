/**
 * JavaScript and TypeScript (.js .mjs .cjs .jsx .ts .mts .cts .tsx): finds public-key
 * cryptography by reading the syntax tree (tree-sitter), resolving each call's callee through
 * the file's imports and bindings to a canonical path the API tables know.
 */
import { extname } from 'node:path';
import { treeDetector } from '../engine/detector.js';
import { pathMatcher } from '../engine/engine.js';
import { allOf, apiNamePrefilter, patternPrefilter } from '../engine/prefilter.js';
import { ruleSet, type Site } from '../engine/rules.js';
import { apiText, descendants, lineOf, namedChildren } from '../engine/syntax.js';
import { own } from '../engine/values.js';
import type { Grammar, SyntaxNode } from '../parser.js';
import type { SourceFileReport, SourceLanguage } from '../types.js';
import { LIBRARY_RULES } from './api-libraries.js';
import { NODE_CRYPTO_RULES } from './api-node.js';
import { memberPath } from './modules.js';
import { BINDING_TYPES, type JavaScriptEvaluator, javascriptEvaluator } from './reader.js';

const RULES = ruleSet([...NODE_CRYPTO_RULES, ...LIBRARY_RULES]);

const GRAMMAR: Readonly<Record<string, Grammar>> = {
  '.js': 'javascript',
  '.mjs': 'javascript',
  '.cjs': 'javascript',
  '.jsx': 'javascript',
  '.ts': 'typescript',
  '.mts': 'typescript',
  '.cts': 'typescript',
  '.tsx': 'tsx',
};

/** Every rule starts from one of these names (a module, a global or a library's export). */
const MODULES =
  /crypto|subtle|forge|jsrsasign|KEYUTIL|KJUR|RSAKey|elliptic|jsonwebtoken|jose|jwt|nacl|noble/;

/**
 * A crypto module, and an API of it some rule matches: a file that only hashes or runs a
 * symmetric cipher is parsed too, since its algorithms go into the CBOM (without a finding).
 */
const prefilter = allOf(patternPrefilter(MODULES), apiNamePrefilter(RULES.names));

function argumentsOf(call: SyntaxNode): SyntaxNode[] {
  const args = call.childForFieldName('arguments');
  if (args?.type !== 'arguments') return [];
  return namedChildren(args).filter((node) => node.type !== 'comment');
}

const NO_KEYWORDS: ReadonlyMap<string, SyntaxNode> = new Map();

/** A call or `new` with the canonical path of its callee, or nothing when no rule can match. */
function siteOf(call: SyntaxNode, ev: JavaScriptEvaluator): Site | undefined {
  const isNew = call.type === 'new_expression';
  const callee = call.childForFieldName(isNew ? 'constructor' : 'function');
  if (!callee) return undefined;
  const prefix = isNew ? 'new ' : '';
  let located: Pick<Site, 'path' | 'line' | 'receiverValue' | 'receiver'>;
  if (callee.type === 'member_expression') {
    const object = callee.childForFieldName('object');
    const property = callee.childForFieldName('property');
    if (!object || !property || !RULES.names.has(property.text)) return undefined;
    const receiver = ev.value(object);
    const target = memberPath(receiver, property.text);
    const path = prefix + (target.kind === 'api' ? target.path : `*.${property.text}`);
    located = { path, line: lineOf(property), receiverValue: receiver, receiver: object };
  } else {
    const target = ev.value(callee);
    if (target.kind !== 'api' || target.path === '') return undefined;
    located = { path: prefix + target.path, line: lineOf(callee) };
  }
  if (RULES.match(located.path).length === 0) return undefined;
  return {
    ...located,
    node: call,
    args: argumentsOf(call),
    keywords: NO_KEYWORDS,
    api: apiText(callee),
  };
}

const CALL_TYPES = new Set(['call_expression', 'new_expression']);
const WALKED = [...CALL_TYPES, ...BINDING_TYPES];

function detectIn(root: SyntaxNode, language: SourceLanguage): SourceFileReport {
  const calls: SyntaxNode[] = [];
  const declarations: SyntaxNode[] = [];
  for (const node of descendants(root, WALKED))
    (CALL_TYPES.has(node.type) ? calls : declarations).push(node);
  const ev = javascriptEvaluator(declarations, calls);
  const sites: Site[] = [];
  for (const call of calls) {
    const site = siteOf(call, ev);
    if (site) sites.push(site);
  }
  const matcher = pathMatcher(language, ev);
  matcher.apply(sites, [], RULES);
  return matcher.report();
}

export const javascriptDetector = treeDetector({
  language: 'javascript',
  extensions: Object.keys(GRAMMAR),
  grammar: (path) => own(GRAMMAR, extname(path).toLowerCase()) ?? 'javascript',
  languageOf: (grammar) => (grammar === 'javascript' ? 'javascript' : 'typescript'),
  mayContain: prefilter,
  read: (root, _text, { language }) => detectIn(root, language),
});
