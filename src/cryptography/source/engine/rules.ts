/**
 * The one vocabulary every language's API tables are written in (engine.ts matches them).
 *
 * A call site is a call, constructor call or constant reference with its arguments. A language
 * reader either resolves its callee to a canonical path (`crypto.generateKeyPairSync`,
 * `pyca.rsa.generate_private_key`, `KeyPairGenerator.getInstance`) matched by path rules, or
 * hands it over as a qualified name as written (`RSA.Create`, `OpenSSL::PKey::RSA.new`) looked
 * up in API tables with the file's imports. Either way a rule says what the call means: a fixed
 * family, or a family read from an argument through a name table, with the key size and curve
 * read from arguments; and methods on the key objects a call returns are uses of its family.
 */

import type { SyntaxNode } from '../parser.js';
import type { PublicKeyAlgorithm, SourceLanguage } from '../types.js';
import {
  curveName,
  knownCurve,
  type NameMeaning,
  type Recorded,
  type UsePrimitive,
} from './names.js';
import type { PathEntry, PathTable } from './path-table.js';

export type { Recorded, UsePrimitive } from './names.js';

import type { Refinement, UseFields } from './report.js';
import { lastName, numberOf, stringOf, type Value } from './values.js';

/** A call, constructor call or constant reference, whatever the grammar. */
export interface CallSite {
  node: SyntaxNode;
  /** Positional arguments, comments left out. */
  args: readonly SyntaxNode[];
  /** Named arguments (Python and Ruby keywords, C# and PHP named arguments, Go struct fields). */
  keywords: ReadonlyMap<string, SyntaxNode>;
  /** The expression a method is called on, when there is one. */
  receiver?: SyntaxNode | null | undefined;
}

/** A call site whose callee the language's reader resolved to a canonical path. */
export interface Site extends CallSite {
  /** Canonical path; `*.name` when the receiver of a method call is unknown. */
  path: string;
  /** 1-based line of the called or referenced name. */
  line: number;
  /** The callee as written, whitespace removed. */
  api: string;
  /** The value of the receiver of a method call. */
  receiverValue?: Value;
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
  | { symmetric: Recorded }
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

/** The argument a reference names: by keyword first (when the call has it), else by position. */
export function argNode(site: CallSite, ref: ArgRef): SyntaxNode | undefined {
  if (ref.keyword !== undefined) {
    const byName = site.keywords.get(ref.keyword);
    if (byName) return byName;
  }
  return ref.index === undefined ? undefined : site.args[ref.index];
}

/** The node of an entry at a dotted property path through object values. */
function entryAt(
  of: Value,
  path: string,
  value: (node: SyntaxNode) => Value,
): SyntaxNode | undefined {
  let holder = of;
  let entry: SyntaxNode | undefined;
  for (const name of path.split('.')) {
    if (entry) holder = value(entry);
    entry = holder.kind === 'object' ? holder.entries.get(name) : undefined;
    if (!entry) return undefined;
  }
  return entry;
}

/**
 * The node an ArgRef points at: the argument, or with `property` the entry of the object (PHP
 * option array, Ruby hash, JavaScript options) the argument's value is.
 */
export function argumentIn(
  site: CallSite,
  ref: ArgRef,
  value: (node: SyntaxNode) => Value,
): SyntaxNode | undefined {
  const node = argNode(site, ref);
  if (!node || ref.property === undefined) return node;
  return entryAt(value(node), ref.property, value);
}

/** The value an ArgRef points at, or undefined when the call does not have it. */
export function argValue(site: CallSite, ctx: RuleContext, ref: ArgRef): Value | undefined {
  const node = argNode(site, ref);
  if (!node) return undefined;
  const value = ctx.value(node);
  if (ref.property === undefined) return value;
  if (value.kind !== 'object') return ref.orSelf ? value : undefined;
  return propertyValue(value, ref.property, ctx);
}

/** Follows a dotted property path through object values. */
export function propertyValue(of: Value, path: string, ctx: RuleContext): Value | undefined {
  const entry = entryAt(of, path, ctx.value);
  return entry ? ctx.value(entry) : undefined;
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
  reader: (name: string) => Recorded | undefined,
): RuleRead {
  return (site, ctx) =>
    namesIn(argValue(site, ctx, name), ctx).flatMap((one) => {
      const symmetric = reader(one);
      return symmetric ? [{ symmetric }] : [];
    });
}

export function symmetricFixed(algorithm: string, kind: Recorded['kind']): RuleRead {
  return () => [{ symmetric: { algorithm, kind } }];
}

/** The call that produced a method call's receiver (the `getInstance` of `generator.initialize`). */
export function producerOf(site: Site): SyntaxNode | undefined {
  const receiver = site.receiverValue;
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
    const name = typeof rule.path === 'string' ? lastName(rule.path) : key;
    names.add(name);
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

// The API tables: qualified names looked up with the file's imports, and key objects.

/** The fields of a use a table entry fixes or an argument fills in. */
export type PartialUse = Partial<Pick<UseFields, 'primitive' | 'algorithm' | 'curve' | 'keySize'>>;

/**
 * How an argument is read: a key size in bits, a curve name, a JWT `alg`, a signature scheme
 * (`SHA256withECDSA`), a key type (`RSA`, `EC`), a library constant, a key object, a hash, the
 * hash of an HMAC, or a cipher name.
 */
export type Reading =
  | 'key-size'
  | 'curve'
  | 'jwt'
  | 'signature'
  | 'key-type'
  | 'known'
  | 'key'
  | 'hash'
  | 'hmac'
  | 'cipher';

export interface ArgRule {
  arg: ArgRef;
  read: Reading;
  /** Without a meaning from this argument the call is not a use (`JWT.encode` without `alg`). */
  required?: boolean;
}

/** Reads one argument of a call site the way an ArgRule does, for `decide` functions. */
export type ArgReader = (ref: ArgRef, reading: Reading) => NameMeaning | undefined;

/** What a call means once its arguments are read. */
export interface Decision extends PartialUse {
  record?: Recorded | undefined;
}

/** A function, static method or constructor (`new` last) of a crypto library. */
export interface ApiRule extends PathEntry, PartialUse {
  args?: readonly ArgRule[];
  /** A symmetric cipher, hash or MAC the call records as an algorithm (no finding). */
  records?: Recorded;
  /** The call returns a key object of the use's family, for methods called on it later. */
  returnsKey?: boolean;
  /** What it returns is existing key material: a key factory given it imports, not generates. */
  material?: boolean;
  /** For the few APIs whose meaning depends on the kind of argument (RSA.new(2048) or (pem)). */
  decide?: (site: TableSite, read: ArgReader) => Decision | null;
}

/** A method called on a key object of a known family (`rsa.SignData`, `key.public_encrypt`). */
export interface MethodRule extends PartialUse {
  method: string;
  /** The families it applies to (default: any key object). */
  families?: readonly PublicKeyAlgorithm[];
  /** Also a use when the receiver is unknown: a name only these keys have. */
  anyReceiver?: boolean;
  args?: readonly ArgRule[];
  returnsKey?: boolean;
}

/** A library constant or enum member (`SecurityAlgorithms.RsaSha256`, `OPENSSL_KEYTYPE_RSA`). */
export interface KnownValue extends PathEntry, NameMeaning {
  /** A use wherever it appears on its own (not only as the argument of a known call). */
  standalone?: UsePrimitive;
  /** Makes a known method it is passed to a use of this primitive, whatever the receiver. */
  hint?: UsePrimitive;
}

/** A declared type whose values are key objects (`RSA rsa`, `key: &RsaPrivateKey`). */
export interface KeyType extends PathEntry {
  algorithm: PublicKeyAlgorithm;
  curve?: string;
  /** Values of the type are key material (RSAParameters), not key objects. */
  material?: boolean;
}

export interface ApiTables {
  calls: PathTable<ApiRule>;
  methods: ReadonlyMap<string, readonly MethodRule[]>;
  known: PathTable<KnownValue>;
  types: PathTable<KeyType>;
  /** Methods whose value is their receiver's (`unwrap`, `expect`, `freeze`, `clone`). */
  passthrough: ReadonlySet<string>;
}

/** Groups method rules by name for ApiTables.methods. */
export function methodsByName(rules: readonly MethodRule[]): Map<string, MethodRule[]> {
  const byName = new Map<string, MethodRule[]>();
  for (const rule of rules) byName.set(rule.method, [...(byName.get(rule.method) ?? []), rule]);
  return byName;
}

/** A call site as written, for the API tables. */
export interface TableSite extends CallSite {
  /** The callee expression as written (for the use's `api`). */
  callee: SyntaxNode;
  /** The node naming the method or function: the use's line. */
  nameNode: SyntaxNode;
  /** The callee as a qualified name (`RSA.Create`, `OpenSSL.PKey.RSA.new`), when it is one. */
  segments: string[] | null;
  receiver: SyntaxNode | null;
  method: string;
}

/** What a reader asks the engine while valuing an expression; bounded in depth and count. */
export interface Evaluation {
  /** The value of a sub-expression (unknown past the engine's depth or count bound). */
  value(node: SyntaxNode | null | undefined): Value;
  /** The value a call returns: a key object for key-producing APIs. */
  call(site: TableSite): Value;
}

/** The language-specific half of a detector: names, values and call sites of one file. */
export interface LanguageReader {
  language: SourceLanguage;
  /** The qualified names a written name may stand for, through the file's imports. */
  expand(path: readonly string[]): string[][];
  /** The value of an expression, its parts valued through `evaluation` (which bounds them). */
  evaluate(node: SyntaxNode, evaluation: Evaluation): Value;
  /** The call site a call node makes, or null when it is not a call this reader knows. */
  siteOf(node: SyntaxNode): TableSite | null;
  /** The called function's or method's name alone, cheaply: calls of no known name are skipped. */
  calleeName(node: SyntaxNode): string | undefined;
}
