/**
 * The API-table vocabulary the C#, Rust, Ruby and PHP detectors share: what a call, a method on
 * a key object, or a library constant means, and where its key size, curve or algorithm name
 * is. Each language supplies its tables (data) and a reader that turns its syntax tree into
 * call sites and values; engine-b.ts matches the two.
 */

import type { SyntaxNode } from '../parser.js';
import type {
  CryptoPrimitive,
  PublicKeyAlgorithm,
  SourceAlgorithmUse,
  SourceLanguage,
} from '../types.js';
import type { NameMeaning } from './names.js';
import type { PathEntry, PathTable } from './path-table.js';
import type { Value } from './values.js';

export type Primitive = Exclude<CryptoPrimitive, 'library'>;
export type Recorded = Pick<SourceAlgorithmUse, 'algorithm' | 'kind'>;

/** The fields of a use a rule fixes or an argument fills in. */
export interface UseFields {
  primitive?: Primitive | undefined;
  algorithm?: PublicKeyAlgorithm | undefined;
  curve?: string | undefined;
  keySize?: number | undefined;
}

/** An argument by position (0-based) and/or by name (C# named, Ruby keyword, PHP named). */
export interface ArgSpec {
  index?: number;
  name?: string;
  /** A key of the option map (PHP array, Ruby hash) given at `index` (default 0). */
  option?: string;
}

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
  arg: ArgSpec;
  read: Reading;
  /** Without a meaning from this argument the call is not a use (`JWT.encode` without `alg`). */
  required?: boolean;
}

/** Reads one argument of a call site the way an ArgRule does, for `decide` functions. */
export type ArgReader = (spec: ArgSpec, reading: Reading) => NameMeaning | undefined;

/** What a call means once its arguments are read. */
export interface Decision extends UseFields {
  record?: Recorded | undefined;
}

/** A function, static method or constructor (`new` last) of a crypto library. */
export interface ApiRule extends PathEntry, UseFields {
  args?: readonly ArgRule[];
  /** A symmetric cipher, hash or MAC the call records as an algorithm (no finding). */
  records?: Recorded;
  /** The call returns a key object of the use's family, for methods called on it later. */
  returnsKey?: boolean;
  /** What it returns is existing key material: a key factory given it imports, not generates. */
  material?: boolean;
  /** For the few APIs whose meaning depends on the kind of argument (RSA.new(2048) or (pem)). */
  decide?: (site: CallSite, read: ArgReader) => Decision | null;
}

/** A method called on a key object of a known family (`rsa.SignData`, `key.public_encrypt`). */
export interface MethodRule extends UseFields {
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
  standalone?: Primitive;
  /** Makes a known method it is passed to a use of this primitive, whatever the receiver. */
  hint?: Primitive;
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

/** A call as the engine sees it, whatever the grammar. */
export interface CallSite {
  node: SyntaxNode;
  /** The callee expression as written (for the use's `api`). */
  callee: SyntaxNode;
  /** The node naming the method or function: the use's line. */
  nameNode: SyntaxNode;
  /** The callee as a qualified name (`RSA.Create`, `OpenSSL.PKey.RSA.new`), when it is one. */
  path: string[] | null;
  /** The expression a method is called on, when there is one. */
  receiver: SyntaxNode | null;
  method: string;
  args: SyntaxNode[];
  named: Map<string, SyntaxNode>;
}

/** What a reader asks the engine while valuing an expression; bounded in depth and count. */
export interface Evaluation {
  /** The value of a sub-expression (unknown past the engine's depth or count bound). */
  value(node: SyntaxNode | null | undefined): Value;
  /** The value a call returns: a key object for key-producing APIs. */
  call(site: CallSite): Value;
}

/** The language-specific half of a detector: names, values and call sites of one file. */
export interface LanguageReader {
  language: SourceLanguage;
  /** The qualified names a written name may stand for, through the file's imports. */
  expand(path: readonly string[]): string[][];
  /** The value of an expression, its parts valued through `evaluation` (which bounds them). */
  evaluate(node: SyntaxNode, evaluation: Evaluation): Value;
  /** The call site a call node makes, or null when it is not a call this reader knows. */
  siteOf(node: SyntaxNode): CallSite | null;
  /** The called function's or method's name alone, cheaply: calls of no known name are skipped. */
  calleeName(node: SyntaxNode): string | undefined;
}
