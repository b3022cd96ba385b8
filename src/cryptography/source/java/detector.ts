/**
 * Java (.java): finds public-key cryptography by reading the syntax tree (tree-sitter). JCA
 * factories, BouncyCastle classes and JOSE libraries are matched by class name; an algorithm
 * name or key size in a constant, field, local or small method of the file is followed, and a
 * generator's `initialize(2048)` sets the size on the generator's finding.
 */

import { treeDetector } from '../engine/detector.js';
import { pathMatcher } from '../engine/engine.js';
import { allOf, apiNamePrefilter, patternPrefilter } from '../engine/prefilter.js';
import { ruleSet, type Site } from '../engine/rules.js';
import {
  apiText,
  descendants,
  lineOf,
  type NodesByType,
  namedChildren,
  nodesByType,
} from '../engine/syntax.js';
import { member } from '../engine/values.js';
import type { SyntaxNode } from '../parser.js';
import type { SourceFileReport } from '../types.js';
import { JCA_LATE_RULES, JCA_RULES } from './api-jca.js';
import { JAVA_LIBRARY_RULES, JAVA_REFERENCE_RULES } from './api-libraries.js';
import { JAVA_BINDING_TYPES, type JavaEvaluator, javaEvaluator, typeName } from './reader.js';

const CALLS = ruleSet([...JCA_RULES, ...JAVA_LIBRARY_RULES]);
const LATE = ruleSet([...JCA_LATE_RULES, ...JAVA_REFERENCE_RULES]);
const LATE_CREATIONS = new Set(JCA_LATE_RULES.map((rule) => String(rule.path)));

/** Every rule needs an import from one of these packages (JCA classes are not in java.lang). */
const MODULES =
  /java\.security|javax\.crypto|org\.bouncycastle|io\.jsonwebtoken|com\.nimbusds|com\.auth0/;

/**
 * Method names every class has (`getInstance`, `init`), made specific by the class they are
 * called on, which the code always spells: the class names stand for them in the prefilter.
 */
const BY_CLASS = new Set(['getInstance', 'initialize', 'init', 'keyPair']);
const PUBLIC_KEY_CLASSES = [
  'KeyPairGenerator',
  'KeyFactory',
  'Signature',
  'KeyAgreement',
  'Cipher',
  'Jwts',
  'SignatureAlgorithm',
  'JWSAlgorithm',
  'JWEAlgorithm',
];

/** The classes whose generic methods (`MessageDigest.getInstance`) the rules match. */
const RULE_CLASSES = [...JCA_RULES, ...JCA_LATE_RULES, ...JAVA_LIBRARY_RULES].flatMap((rule) => {
  if (typeof rule.path !== 'string') return [];
  const segments = rule.path.replace(/^new /, '').split('.');
  const last = segments.at(-1) ?? '';
  return BY_CLASS.has(last) && segments.length > 1 ? [segments[0] ?? ''] : [];
});

/**
 * A crypto package, and a class or API of it some rule matches (digests, MACs and symmetric
 * ciphers included: they go into the CBOM, without a finding).
 */
const prefilter = allOf(
  patternPrefilter(MODULES),
  apiNamePrefilter([
    ...[...CALLS.names, ...LATE.names].filter((name) => !BY_CLASS.has(name)),
    ...PUBLIC_KEY_CLASSES,
    ...RULE_CLASSES,
  ]),
);

/** Places where a name is not a value: `a.RS256`, `RS256()`, `import ...RS256`. */
const NOT_A_VALUE = new Set([
  'field_access',
  'method_invocation',
  'scoped_identifier',
  'import_declaration',
]);

const NO_KEYWORDS: ReadonlyMap<string, SyntaxNode> = new Map();

function argumentsOf(call: SyntaxNode): SyntaxNode[] {
  const args = call.childForFieldName('arguments');
  return args ? namedChildren(args).filter((node) => node.type !== 'comment') : [];
}

function invocationSite(call: SyntaxNode, ev: JavaEvaluator): Site | undefined {
  const object = call.childForFieldName('object');
  const name = call.childForFieldName('name');
  if (!name || object?.type === 'this' || object?.type === 'super') return undefined;
  if (!CALLS.names.has(name.text) && !LATE.names.has(name.text)) return undefined;
  const base = { node: call, args: argumentsOf(call), keywords: NO_KEYWORDS, line: lineOf(name) };
  if (!object) {
    if (!ev.staticImports.has(name.text)) return undefined;
    const target = ev.value(name);
    return target.kind === 'api' ? { ...base, path: target.path, api: name.text } : undefined;
  }
  const receiver = ev.value(object);
  const target = member(receiver, name.text);
  const path = target.kind === 'api' ? target.path : `*.${name.text}`;
  return {
    ...base,
    path,
    api: apiText(object).concat('.', name.text),
    receiverValue: receiver,
    receiver: object,
  };
}

function creationSite(creation: SyntaxNode, ev: JavaEvaluator): Site | undefined {
  const type = creation.childForFieldName('type');
  const name = typeName(type);
  if (!type || !name || (!CALLS.names.has(name) && !LATE.names.has(name))) return undefined;
  const created = ev.value(creation);
  if (created.kind !== 'api' || !created.path.endsWith('()')) return undefined;
  const path = created.path.slice(0, -2);
  return {
    node: creation,
    path,
    line: lineOf(type),
    api: `new ${apiText(type)}`,
    args: argumentsOf(creation),
    keywords: NO_KEYWORDS,
  };
}

function referenceSites(root: SyntaxNode, nodes: NodesByType, ev: JavaEvaluator): Site[] {
  const sites: Site[] = [];
  const reference = (node: SyntaxNode, nameNode: SyntaxNode) => {
    const value = ev.value(node);
    if (value.kind !== 'api') return;
    sites.push({
      node,
      path: value.path,
      line: lineOf(nameNode),
      api: apiText(node),
      args: [],
      keywords: NO_KEYWORDS,
    });
  };
  for (const access of nodes.of('field_access')) {
    const field = access.childForFieldName('field');
    if (field && LATE.names.has(field.text)) reference(access, field);
  }
  if (ev.staticImports.size > 0) {
    for (const identifier of descendants(root, 'identifier')) {
      if (!ev.staticImports.has(identifier.text)) continue;
      const parent = identifier.parent;
      if (!parent || NOT_A_VALUE.has(parent.type)) continue;
      if (parent.childForFieldName('name')?.id === identifier.id) continue;
      reference(identifier, identifier);
    }
  }
  return sites;
}

const WALKED = [
  ...JAVA_BINDING_TYPES,
  'method_invocation',
  'object_creation_expression',
  'field_access',
];

function detectIn(root: SyntaxNode): SourceFileReport {
  const nodes = nodesByType(root, WALKED);
  const ev = javaEvaluator(nodes);
  const calls: Site[] = [];
  const late: Site[] = [];
  for (const node of nodes.of('method_invocation', 'object_creation_expression')) {
    const site =
      node.type === 'method_invocation' ? invocationSite(node, ev) : creationSite(node, ev);
    if (!site) continue;
    (LATE_CREATIONS.has(site.path) ? late : calls).push(site);
  }
  const matcher = pathMatcher('java', ev);
  matcher.apply(calls, [], CALLS);
  matcher.apply([], [...late, ...referenceSites(root, nodes, ev)], LATE);
  return matcher.report();
}

export const javaDetector = treeDetector({
  language: 'java',
  extensions: ['.java'],
  grammar: 'java',
  mayContain: prefilter,
  read: (root) => detectIn(root),
});
