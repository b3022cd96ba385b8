/**
 * The shape every language's API table takes, and the small readers the tables are written
 * with. A rule matches the canonical path of a call (`crypto.generateKeyPairSync`,
 * `pyca.rsa.generate_private_key`, `KeyPairGenerator.getInstance`) or of a referenced constant
 * (`jwt.SigningMethodRS256`), and says what it means: a fixed family, or a family read from an
 * argument through a name table, with the key size and curve read from arguments.
 */

import type { SyntaxNode } from '../parser.js';
import type { PublicKeyAlgorithm, SourceAlgorithmUse } from '../types.js';
import { curveName, knownCurve, type NameMeaning, type UsePrimitive } from './names.js';
import type { Refinement, ReportBuilder, UseFields } from './report.js';
import { lastName, numberOf, stringOf, type Value } from './values.js';

/** A call, constructor call or constant reference whose path the evaluator resolved. */
export interface Site {
  node: SyntaxNode;
  /** Canonical path; `*.name` when the receiver of a method call is unknown. */
  path: string;
  /** 1-based line of the called or referenced name. */
  line: number;
  /** The callee as written, whitespace removed. */
  api: string;
  /** The value of the receiver of a method call, and its node. */
  receiver?: Value;
  receiverNode?: SyntaxNode;
  args: readonly SyntaxNode[];
  keywords: ReadonlyMap<string, SyntaxNode>;
}

export interface RuleContext {
  value(node: SyntaxNode): Value;
  /** Marks a node read as a rule's argument, so a reference rule does not count it again. */
  consume(node: SyntaxNode): void;
  /** Whether the file imports (or otherwise binds) the canonical module. */
  imports(module: string): boolean;
}

export type Emission =
  | { use: UseFields }
  | { symmetric: { algorithm: string; kind: SourceAlgorithmUse['kind'] } }
  | { refine: SyntaxNode; with: Refinement };

export type RuleRead = (site: Site, ctx: RuleContext) => Emission[];

export interface Rule {
  /** An exact canonical path, or a pattern tested on the paths whose last name is `method`. */
  path: string | RegExp;
  method?: string;
  read: RuleRead;
}

/** Where a rule finds a value: a positional argument, a keyword, and a property inside it. */
export interface ArgRef {
  index?: number;
  keyword?: string;
  /** Dotted property path inside an object argument (`signOptions.algorithm`). */
  property?: string;
  /** With `property`: an argument that is not an object is the value itself (WebCrypto names). */
  orSelf?: boolean;
}

export interface SizeRef extends ArgRef {
  read?: (value: Value, ctx: RuleContext) => number | undefined;
}

export interface CurveRef extends ArgRef {
  read?: (value: Value, ctx: RuleContext) => string | undefined;
}

export function at(index: number, property?: string, orSelf?: boolean): ArgRef {
  const ref: ArgRef = { index };
  if (property !== undefined) ref.property = property;
  if (orSelf) ref.orSelf = true;
  return ref;
}

export function kw(keyword: string, index?: number, property?: string): ArgRef {
  const ref: ArgRef = { keyword };
  if (index !== undefined) ref.index = index;
  if (property !== undefined) ref.property = property;
  return ref;
}

export function argNode(site: Site, ref: ArgRef): SyntaxNode | undefined {
  if (ref.keyword !== undefined) {
    const byName = site.keywords.get(ref.keyword);
    if (byName) return byName;
  }
  return ref.index === undefined ? undefined : site.args[ref.index];
}

/** The value an ArgRef points at, or undefined when the call does not have it. */
export function argValue(site: Site, ctx: RuleContext, ref: ArgRef): Value | undefined {
  const node = argNode(site, ref);
  if (!node) return undefined;
  const value = ctx.value(node);
  if (ref.property === undefined) return value;
  if (value.kind !== 'object') return ref.orSelf ? value : undefined;
  return propertyValue(value, ref.property, ctx);
}

/** Follows a dotted property path through object values. */
export function propertyValue(of: Value, path: string, ctx: RuleContext): Value | undefined {
  let current: Value = of;
  for (const name of path.split('.')) {
    if (current.kind !== 'object') return undefined;
    const entry = current.entries.get(name);
    if (!entry) return undefined;
    current = ctx.value(entry);
  }
  return current;
}

/** The strings a name argument holds: one string, each string of a list, or an API's last name. */
export function namesIn(value: Value | undefined, ctx: RuleContext): string[] {
  if (!value) return [];
  if (value.kind === 'list') {
    return value.items.flatMap((item) => {
      const text = stringOf(ctx.value(item));
      return text === undefined ? [] : [text];
    });
  }
  if (value.kind === 'api') return [lastName(value.path)];
  const text = stringOf(value);
  return text === undefined ? [] : [text];
}

/** A curve from a string (any name) or an API reference (only names the curve table knows). */
export function curveOf(value: Value | undefined): string | undefined {
  if (!value) return undefined;
  if (value.kind === 'string') return curveName(value.value);
  if (value.kind === 'api') return knownCurve(lastName(value.path));
  return undefined;
}

function firstOf<R extends ArgRef, T>(
  site: Site,
  ctx: RuleContext,
  refs: R | readonly R[] | undefined,
  read: (value: Value, ref: R) => T | undefined,
): T | undefined {
  if (refs === undefined) return undefined;
  const list: readonly R[] = Array.isArray(refs) ? refs : [refs as R];
  for (const ref of list) {
    const value = argValue(site, ctx, ref);
    if (!value) continue;
    const result = read(value, ref);
    if (result !== undefined) return result;
  }
  return undefined;
}

export function sizeFrom(site: Site, ctx: RuleContext, refs?: SizeRef | readonly SizeRef[]) {
  return firstOf(site, ctx, refs, (value, ref) =>
    ref.read ? ref.read(value, ctx) : numberOf(value),
  );
}

export function curveFrom(site: Site, ctx: RuleContext, refs?: CurveRef | readonly CurveRef[]) {
  return firstOf(site, ctx, refs, (value, ref) =>
    ref.read ? ref.read(value, ctx) : curveOf(value),
  );
}

export interface UseOptions {
  keySize?: number | SizeRef | readonly SizeRef[];
  curve?: string | CurveRef | readonly CurveRef[];
  /** The family when the code does not say it; marks the use `assumed`. */
  assumed?: boolean;
  /** Reads the family from the call (a typed key argument, an option); wins over the default. */
  family?: (site: Site, ctx: RuleContext) => PublicKeyAlgorithm | undefined;
}

function sizeOption(site: Site, ctx: RuleContext, option: UseOptions['keySize']) {
  return typeof option === 'number' ? option : sizeFrom(site, ctx, option);
}

function curveOption(site: Site, ctx: RuleContext, option: UseOptions['curve']) {
  return typeof option === 'string' ? option : curveFrom(site, ctx, option);
}

/** A call that always means one family (`crypto.publicEncrypt` is RSA encryption). */
export function fixed(
  primitive: UsePrimitive,
  algorithm: PublicKeyAlgorithm,
  options: UseOptions = {},
): RuleRead {
  return (site, ctx) => {
    const read = options.family?.(site, ctx);
    const use: UseFields = { primitive, algorithm: read ?? algorithm };
    const keySize = sizeOption(site, ctx, options.keySize);
    const curve = curveOption(site, ctx, options.curve);
    if (keySize !== undefined) use.keySize = keySize;
    if (curve !== undefined) use.curve = curve;
    if (options.assumed && !read) use.assumed = true;
    return [{ use }];
  };
}

/** A key-generation or key-material rule keeps its primitive; a use takes the name's own. */
function primitiveFor(rule: UsePrimitive, meaning: NameMeaning): UsePrimitive {
  if (rule === 'key-generation' || rule === 'key-material') return rule;
  return meaning.primitive ?? rule;
}

/** Turns one name into emissions; shared by `named` and the language-specific readers. */
export function emissionsOf(
  meaning: NameMeaning | undefined,
  primitive: UsePrimitive,
  extra: { keySize?: number | undefined; curve?: string | undefined } = {},
): Emission[] {
  if (!meaning) return [];
  if (meaning.symmetric) return [{ symmetric: meaning.symmetric }];
  if (!meaning.algorithm) return [];
  const use: UseFields = {
    primitive: primitiveFor(primitive, meaning),
    algorithm: meaning.algorithm,
  };
  const keySize = extra.keySize ?? meaning.keySize;
  const curve = extra.curve ?? meaning.curve;
  if (keySize !== undefined) use.keySize = keySize;
  if (curve !== undefined) use.curve = curve;
  if (meaning.assumed) use.assumed = true;
  return [{ use }];
}

/** A call whose family is named by an argument (`KeyPairGenerator.getInstance("RSA")`). */
export function named(
  primitive: UsePrimitive,
  name: ArgRef | readonly ArgRef[],
  reader: (name: string) => NameMeaning | undefined,
  options: Omit<UseOptions, 'assumed' | 'family'> = {},
): RuleRead {
  const refs: readonly ArgRef[] = Array.isArray(name) ? name : [name as ArgRef];
  return (site, ctx) => {
    for (const ref of refs) {
      const value = argValue(site, ctx, ref);
      const names = namesIn(value, ctx);
      if (names.length === 0) continue;
      const node = argNode(site, ref);
      if (node) ctx.consume(node);
      const extra = {
        keySize: sizeOption(site, ctx, options.keySize),
        curve: curveOption(site, ctx, options.curve),
      };
      return names.flatMap((one) => emissionsOf(reader(one), primitive, extra));
    }
    return [];
  };
}

/** A symmetric cipher, MAC, KDF or hash named by an argument (`createHash('sha256')`). */
export function symmetricNamed(
  name: ArgRef,
  reader: (name: string) => NameMeaning['symmetric'] | undefined,
): RuleRead {
  return (site, ctx) =>
    namesIn(argValue(site, ctx, name), ctx).flatMap((one) => {
      const symmetric = reader(one);
      return symmetric ? [{ symmetric }] : [];
    });
}

export function symmetricFixed(algorithm: string, kind: SourceAlgorithmUse['kind']): RuleRead {
  return () => [{ symmetric: { algorithm, kind } }];
}

/** The call that produced a method call's receiver (the `getInstance` of `generator.initialize`). */
export function producerOf(site: Site): SyntaxNode | undefined {
  const receiver = site.receiver;
  if (receiver?.kind !== 'api') return undefined;
  return receiver.calls[receiver.calls.length - 1];
}

/** Sets a key size or curve on the use of the call that produced the receiver. */
export function refineReceiver(options: {
  keySize?: SizeRef | readonly SizeRef[];
  curve?: CurveRef | readonly CurveRef[];
}): RuleRead {
  return (site, ctx) => {
    const target = producerOf(site);
    if (!target) return [];
    const refinement: Refinement = {
      keySize: sizeFrom(site, ctx, options.keySize),
      curve: curveFrom(site, ctx, options.curve),
    };
    return [{ refine: target, with: refinement }];
  };
}

/** Exact paths in a map, patterns indexed by the last name of the paths they may match. */
export interface RuleSet {
  match(path: string): Rule[];
  /**
   * The last names of every path a rule can match (`generateKeyPairSync`, `getInstance`): a
   * call whose method name is not here needs no evaluation at all, which is most calls.
   */
  names: ReadonlySet<string>;
}

export function ruleSet(rules: readonly Rule[]): RuleSet {
  const exact = new Map<string, Rule[]>();
  const byMethod = new Map<string, Rule[]>();
  const names = new Set<string>();
  for (const rule of rules) {
    const key = typeof rule.path === 'string' ? rule.path : (rule.method ?? '');
    names.add(typeof rule.path === 'string' ? lastName(rule.path) : key);
    const map = typeof rule.path === 'string' ? exact : byMethod;
    const list = map.get(key) ?? [];
    list.push(rule);
    map.set(key, list);
  }
  return {
    names,
    match(path) {
      const hits = exact.get(path) ?? [];
      const candidates = byMethod.get(lastName(path));
      if (!candidates) return hits;
      const patterned = candidates.filter((rule) => (rule.path as RegExp).test(path));
      return patterned.length === 0 ? hits : [...hits, ...patterned];
    },
  };
}

/** Runs the rules over a file's calls, then over its constant references, into `report`. */
export function applyRules(
  calls: readonly Site[],
  references: readonly Site[],
  rules: RuleSet,
  ctx: RuleContext & { consumed: ReadonlySet<number> },
  report: ReportBuilder,
): void {
  const emit = (site: Site) => {
    for (const rule of rules.match(site.path)) {
      const emissions = rule.read(site, ctx);
      // `Jwts.SIG.RS256.keyPair()` is one key generation, not also a reference to RS256.
      if (emissions.length > 0 && site.receiverNode) ctx.consume(site.receiverNode);
      for (const emission of emissions) {
        if ('use' in emission) report.use(site.node.id, site.line, site.api, emission.use);
        else if ('symmetric' in emission) {
          report.algorithm(site.line, emission.symmetric.algorithm, emission.symmetric.kind);
        } else report.refine(emission.refine.id, emission.with);
      }
    }
  };
  for (const site of calls) emit(site);
  for (const site of references) if (!ctx.consumed.has(site.node.id)) emit(site);
}
