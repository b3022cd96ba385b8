/**
 * JavaScript and TypeScript (.js .mjs .cjs .jsx .ts .mts .cts .tsx): finds public-key
 * cryptography by reading the syntax tree (tree-sitter), resolving each call's callee through
 * the file's imports and bindings to a canonical path the API tables know.
 */
import { extname } from 'node:path';
import { treeDetector } from '../engine/detector.js';
import { pathMatcher } from '../engine/engine.js';
import {
  allOf,
  anyOf,
  apiNamePrefilter,
  type Prefilter,
  patternPrefilter,
} from '../engine/prefilter.js';
import { type Rule, ruleSet, type Site } from '../engine/rules.js';
import { apiText, descendants, lineOf, namedChildren, type TypedNode } from '../engine/syntax.js';
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
 * What a file must spell to reach each module the rules start from: the import's string or the
 * global's name (modules.ts), always as a whole word. A path is only ever built from these, so
 * a rule under `jsrsasign` cannot match in a file that names none of them.
 */
const MODULE_SPELLINGS: Readonly<Record<string, RegExp>> = {
  crypto: /\bcrypto\b/,
  forge: /\bforge\b/,
  jsrsasign: /\b(?:jsrsasign|KEYUTIL|KJUR|RSAKey)\b/,
  elliptic: /\belliptic\b/,
  jsonwebtoken: /\bjsonwebtoken\b/,
  jose: /\bjose\b/,
  'nestjs-jwt': /@nestjs\/jwt\b/,
  'express-jwt': /\bexpress-jwt\b/,
  'passport-jwt': /\bpassport-jwt\b/,
  nacl: /\btweetnacl\b/,
  noble: /@noble\//,
  'noble-ed25519': /@noble\//,
  'noble-secp256k1': /@noble\//,
};

/** The module a rule's path starts from (`new jsrsasign.KJUR...`, `^forge\.pki`), if it names one. */
function moduleOf(rule: Rule): string | undefined {
  const source = typeof rule.path === 'string' ? rule.path : rule.path.source;
  const root = /^\^?(?:new )?([\w-]+)(?:\\)?\./.exec(source)?.[1];
  return root !== undefined && own(MODULE_SPELLINGS, root) ? root : undefined;
}

/**
 * Per module, its spelling and the names of its rules. Rules that start from no module (`*.sign`,
 * whose read checks the imports itself) take any module, as the coarse check does.
 */
function perModulePrefilter(rules: readonly Rule[]): Prefilter {
  const byModule = new Map<string, Rule[]>();
  const anyModule: Rule[] = [];
  for (const rule of rules) {
    const module = moduleOf(rule);
    if (!module) anyModule.push(rule);
    else byModule.set(module, [...(byModule.get(module) ?? []), rule]);
  }
  const groups = [
    allOf(patternPrefilter(MODULES), apiNamePrefilter(ruleSet(anyModule).names)),
    ...[...byModule].map(([module, list]) =>
      allOf(
        patternPrefilter(MODULE_SPELLINGS[module] as RegExp),
        apiNamePrefilter(ruleSet(list).names),
      ),
    ),
  ];
  // Tested one by one: one pattern of every group's lookaheads would rescan the text per start.
  return Object.assign((text: string) => groups.some((group) => group(text)), {
    source: anyOf(...groups).source,
  });
}

/**
 * A crypto module, and an API of it some rule matches: a file that only hashes or runs a
 * symmetric cipher is parsed too, since its algorithms go into the CBOM (without a finding).
 * The coarse check (any module, any name) runs first; a file it lets through must also name an
 * API of a module it names (`ECDSA` in a file that imports only node:crypto is no jsrsasign use).
 */
const coarse = allOf(patternPrefilter(MODULES), apiNamePrefilter(RULES.names));
const fine = perModulePrefilter([...NODE_CRYPTO_RULES, ...LIBRARY_RULES]);
const prefilter: Prefilter = Object.assign((text: string) => coarse(text) && fine(text), {
  source: coarse.source,
});

function argumentsOf(call: SyntaxNode): SyntaxNode[] {
  const args = call.childForFieldName('arguments');
  if (args?.type !== 'arguments') return [];
  return namedChildren(args).filter((node) => node.type !== 'comment');
}

const NO_KEYWORDS: ReadonlyMap<string, SyntaxNode> = new Map();

/** A call or `new` with the canonical path of its callee, or nothing when no rule can match. */
function siteOf(call: SyntaxNode, ev: JavaScriptEvaluator, isNew: boolean): Site | undefined {
  const callee = call.childForFieldName(isNew ? 'constructor' : 'function');
  if (!callee) return undefined;
  const prefix = isNew ? 'new ' : '';
  let located: Pick<Site, 'path' | 'line' | 'receiverValue' | 'receiver'>;
  if (callee.type === 'member_expression') {
    // The property first: most member calls name no rule, and their object is never read.
    const property = callee.childForFieldName('property');
    if (!property || !RULES.names.has(property.text)) return undefined;
    const object = callee.childForFieldName('object');
    if (!object) return undefined;
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

function detectIn(root: SyntaxNode, text: string, language: SourceLanguage): SourceFileReport {
  const calls: TypedNode[] = [];
  const declarations: TypedNode[] = [];
  for (const node of descendants(root, WALKED)) {
    // A node's type is a WebAssembly call: read once here, and handed on with the node.
    const type = node.type;
    if (CALL_TYPES.has(type)) calls.push({ node, type });
    else declarations.push({ node, type });
  }
  const ev = javascriptEvaluator(declarations, calls, text);
  const sites: Site[] = [];
  for (const { node, type } of calls) {
    const site = siteOf(node, ev, type === 'new_expression');
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
  read: (root, text, { language }) => detectIn(root, text, language),
});
