/**
 * Matches one file's call sites and library constants against a language's API tables
 * (rules-b.ts) and collects the uses and algorithms found. Pure and bounded: values are
 * followed at most MAX_DEPTH names deep, so cyclic bindings end.
 */

import type { SyntaxNode } from '../parser.js';
import type { SourceAlgorithmUse, SourceCryptoUse, SourceFileReport } from '../types.js';
import {
  cipherName,
  curveMeaning,
  hashName,
  joseAlgorithm,
  keyTypeName,
  type NameMeaning,
  signatureName,
} from './names.js';
import { lineOf } from './syntax.js';
import type {
  ApiRule,
  ApiTables,
  ArgRule,
  ArgSpec,
  CallSite,
  Decision,
  LanguageReader,
  MethodRule,
  Reading,
  UseFields,
} from './tables.js';
import { UNKNOWN, type Value } from './values.js';

const MAX_DEPTH = 24;
/** Values computed per file at most: a hostile file of chained names cannot make it slow. */
const MAX_EVALUATIONS = 200_000;
const MAX_API_TEXT = 80;
const AGREEMENT_ONLY: ReadonlySet<string> = new Set(['DH', 'ECDH', 'X25519', 'X448']);

interface Outcome {
  decision: Decision;
  returnsKey: boolean;
  material?: boolean | undefined;
  consumed: SyntaxNode[];
}

export class MatchEngine {
  private readonly uses = new Map<string, SourceCryptoUse>();
  private readonly records = new Map<string, SourceAlgorithmUse>();
  private readonly consumed: [number, number][] = [];
  private readonly callValues = new Map<number, Value>();
  private evaluations = 0;

  constructor(
    readonly tables: ApiTables,
    readonly reader: LanguageReader,
  ) {}

  /** Whether some rule names a function or method so (a cheap test before reading a call). */
  private named(name: string): boolean {
    return this.tables.calls.lastSegments.has(name) || this.tables.methods.has(name);
  }

  /** The value of an expression, following bindings up to MAX_DEPTH deep. */
  value(node: SyntaxNode | null | undefined, depth: number): Value {
    if (!node || depth > MAX_DEPTH || this.evaluations >= MAX_EVALUATIONS) return UNKNOWN;
    this.evaluations += 1;
    return this.reader.evaluate(node, {
      value: (next) => this.value(next, depth + 1),
      call: (site) => this.callValue(site, depth + 1),
    });
  }

  /** What a call returns: a key object for key-producing APIs, the receiver's for passthroughs. */
  callValue(site: CallSite, depth: number): Value {
    const cached = this.callValues.get(site.node.id);
    if (cached) return cached;
    this.callValues.set(site.node.id, UNKNOWN);
    let result: Value = UNKNOWN;
    if (site.receiver && this.tables.passthrough.has(site.method)) {
      result = this.value(site.receiver, depth);
    } else {
      const outcome = this.outcome(site, depth);
      const decided = outcome?.decision;
      if (outcome?.returnsKey && decided?.algorithm) {
        result = { kind: 'key', algorithm: decided.algorithm, curve: decided.curve };
        if (outcome.material) result.material = true;
      }
    }
    this.callValues.set(site.node.id, result);
    return result;
  }

  /** What a call means: a library API, a method on a key object, or a method given a hint. */
  outcome(site: CallSite, depth: number): Outcome | null {
    if (site.path) {
      const rule = this.tables.calls.lookup(site.path, this.reader.expand(site.path));
      if (rule) return this.applyApi(rule, site, depth);
    }
    const methods = this.tables.methods.get(site.method);
    if (!methods || !site.receiver) return null;
    const receiver = this.value(site.receiver, depth);
    if (receiver.kind === 'key') {
      const rule = methods.find((m) => !m.families || m.families.includes(receiver.algorithm));
      if (!rule) return null;
      const base = { algorithm: receiver.algorithm, curve: receiver.curve };
      return this.applyMethod(rule, site, depth, base);
    }
    const blind = methods.find((m) => m.anyReceiver);
    if (blind) return this.applyMethod(blind, site, depth, {});
    return this.hinted(site, depth);
  }

  private applyApi(rule: ApiRule, site: CallSite, depth: number): Outcome | null {
    const consumed: SyntaxNode[] = [];
    if (rule.decide) {
      const decision = rule.decide(site, (spec, reading) => {
        const node = this.argument(site, spec, depth);
        const meaning = node ? this.read(reading, this.value(node, depth)) : undefined;
        if (node && meaning) consumed.push(node);
        return meaning;
      });
      return decision ? { decision, returnsKey: rule.returnsKey ?? false, consumed } : null;
    }
    const decision = this.readArgs(rule, rule.args ?? [], site, depth, consumed);
    if (!decision) return null;
    if (rule.records && !decision.algorithm) decision.record ??= rule.records;
    return { decision, returnsKey: rule.returnsKey ?? false, material: rule.material, consumed };
  }

  private applyMethod(
    rule: MethodRule,
    site: CallSite,
    depth: number,
    receiver: UseFields,
  ): Outcome | null {
    const consumed: SyntaxNode[] = [];
    const base: UseFields = { ...receiver, primitive: rule.primitive };
    if (rule.algorithm) base.algorithm = rule.algorithm;
    if (rule.curve) base.curve = rule.curve;
    const decision = this.readArgs(base, rule.args ?? [], site, depth, consumed);
    return decision ? { decision, returnsKey: rule.returnsKey ?? false, consumed } : null;
  }

  /** A known method on an unknown receiver, made a use by an argument such as an RSA padding. */
  private hinted(site: CallSite, depth: number): Outcome | null {
    for (const node of site.args) {
      const value = this.value(node, depth);
      if (value.kind !== 'path') continue;
      const known = this.tables.known.lookup(value.segments, this.reader.expand(value.segments));
      if (known?.hint && known.algorithm) {
        const decision = { primitive: known.hint, algorithm: known.algorithm, curve: known.curve };
        return { decision, returnsKey: false, consumed: [node] };
      }
    }
    return null;
  }

  private readArgs(
    base: UseFields,
    rules: readonly ArgRule[],
    site: CallSite,
    depth: number,
    consumed: SyntaxNode[],
  ): Decision | null {
    const decision: Decision = {
      primitive: base.primitive,
      algorithm: base.algorithm,
      curve: base.curve,
      keySize: base.keySize,
    };
    for (const rule of rules) {
      const node = this.argument(site, rule.arg, depth);
      const value = this.value(node, depth);
      if (node && value.kind === 'key' && value.material && rule.read !== 'key') {
        // A generator given existing key material (RSA.Create(parameters)) imports a key.
        decision.primitive = 'key-material';
        consumed.push(node);
        continue;
      }
      const meaning = node ? this.read(rule.read, value) : undefined;
      if (!node || !meaning) {
        if (rule.required) return null;
        continue;
      }
      consumed.push(node);
      if (meaning.symmetric) return { record: meaning.symmetric };
      // A Weierstrass curve says EC, not which EC scheme: the API's own family stays.
      const keepFamily =
        rule.read === 'curve' && meaning.algorithm === 'ECDSA' && decision.algorithm;
      mergeMeaning(decision, keepFamily ? { ...meaning, algorithm: decision.algorithm } : meaning);
    }
    return decision;
  }

  /** The argument a spec names, looking into an option map for `option` specs. */
  private argument(site: CallSite, spec: ArgSpec, depth: number): SyntaxNode | undefined {
    if (spec.option === undefined) return argumentNode(site, spec);
    const holder = argumentNode(site, { index: spec.index ?? 0, name: spec.name });
    const options = this.value(holder, depth);
    return options.kind === 'object' ? options.entries.get(spec.option) : undefined;
  }

  /** Reads a value the way an argument rule says. */
  read(reading: Reading, value: Value): NameMeaning | undefined {
    if (value.kind === 'key') {
      return reading === 'key' || reading === 'curve'
        ? { algorithm: value.algorithm, curve: value.curve }
        : undefined;
    }
    if (value.kind === 'number')
      return reading === 'key-size' ? { keySize: value.value } : undefined;
    if (value.kind === 'path') return this.readPath(reading, value.segments);
    if (value.kind !== 'string') return undefined;
    return readName(reading, value.value);
  }

  private readPath(reading: Reading, segments: readonly string[]): NameMeaning | undefined {
    if (reading === 'key-size' || reading === 'key') return undefined;
    const known = this.tables.known.lookup(segments, this.reader.expand(segments));
    if (known) return known;
    const last = segments[segments.length - 1] ?? '';
    return reading === 'curve' ? curveMeaning(last) : undefined;
  }

  /** Reports each call site that is a use (or records an algorithm). */
  reportCalls(nodes: readonly SyntaxNode[]): void {
    for (const node of nodes) {
      const name = this.reader.calleeName(node);
      if (name === undefined || !this.named(name)) continue;
      const site = this.reader.siteOf(node);
      if (!site) continue;
      const outcome = this.outcome(site, 0);
      if (!outcome) continue;
      for (const used of outcome.consumed) this.consumed.push([used.startIndex, used.endIndex]);
      this.addDecision(site.nameNode, outcome.decision, calleeText(site));
    }
  }

  /** Reports library constants that are uses on their own, unless a reported call read them. */
  reportConstants(nodes: readonly SyntaxNode[], path: (node: SyntaxNode) => string[] | null): void {
    for (const node of nodes) {
      if (this.isConsumed(node)) continue;
      const segments = path(node);
      if (!segments) continue;
      const known = this.tables.known.lookup(segments, this.reader.expand(segments));
      if (!known?.standalone || !known.algorithm) continue;
      const decision = {
        primitive: known.standalone,
        algorithm: known.algorithm,
        curve: known.curve,
      };
      this.addDecision(node, decision, apiText(node));
    }
  }

  private isConsumed(node: SyntaxNode): boolean {
    return this.consumed.some(([start, end]) => node.startIndex >= start && node.endIndex <= end);
  }

  /** Adds a use or a recorded algorithm at a node's line; one per line, primitive and family. */
  addDecision(at: SyntaxNode, decision: Decision, api: string): void {
    const line = lineOf(at);
    if (decision.record) {
      const key = `${line} ${decision.record.algorithm}`;
      if (!this.records.has(key)) {
        this.records.set(key, { line, language: this.reader.language, ...decision.record });
      }
    }
    let { primitive, algorithm } = decision;
    if (!primitive || !algorithm) return;
    // A key made only for key agreement (DH, ECDH, X25519) is reported as key agreement.
    if (primitive === 'key-generation' && AGREEMENT_ONLY.has(algorithm)) {
      primitive = 'key-agreement';
    }
    // An EC key used for key agreement is ECDH, whatever made the key.
    if (primitive === 'key-agreement' && algorithm === 'ECDSA') algorithm = 'ECDH';
    const key = `${line} ${primitive} ${algorithm}`;
    const existing = this.uses.get(key);
    if (existing) {
      existing.curve ??= decision.curve;
      existing.keySize ??= decision.keySize;
      return;
    }
    const use: SourceCryptoUse = {
      line,
      language: this.reader.language,
      primitive,
      algorithm,
      api,
    };
    if (decision.curve) use.curve = decision.curve;
    if (decision.keySize !== undefined) use.keySize = decision.keySize;
    this.uses.set(key, use);
  }

  report(): SourceFileReport {
    const byLine = (a: { line: number }, b: { line: number }) => a.line - b.line;
    return {
      uses: [...this.uses.values()].sort(byLine),
      algorithms: [...this.records.values()].sort(byLine),
    };
  }
}

/** The report of a file with nothing found. */
export function emptyReport(): SourceFileReport {
  return { uses: [], algorithms: [] };
}

/** The argument a spec names: by name first (named/keyword), else by position. */
export function argumentNode(site: CallSite, spec: ArgSpec): SyntaxNode | undefined {
  if (spec.name !== undefined) {
    const named = site.named.get(spec.name);
    if (named) return named;
  }
  return spec.index === undefined ? undefined : site.args[spec.index];
}

function readName(reading: Reading, text: string): NameMeaning | undefined {
  switch (reading) {
    case 'curve':
      return curveMeaning(text);
    case 'jwt':
      return joseAlgorithm(text);
    case 'signature':
      return signatureName(text);
    case 'key-type':
      return keyTypeName(text);
    case 'hash': {
      const hash = hashName(text);
      return hash ? { symmetric: { algorithm: hash, kind: 'hash' } } : undefined;
    }
    case 'hmac': {
      const hash = hashName(text);
      const algorithm = hash ? `HMAC-${hash.replace('-', '')}` : undefined;
      return algorithm ? { symmetric: { algorithm, kind: 'mac' } } : undefined;
    }
    case 'cipher': {
      if (/^rsa(\/|$)/i.test(text.trim())) return { algorithm: 'RSA' };
      const cipher = cipherName(text);
      return cipher ? { symmetric: cipher } : undefined;
    }
    case 'key-size': {
      const size = /^\d{3,5}$/.test(text.trim()) ? Number(text.trim()) : undefined;
      return size ? { keySize: size } : undefined;
    }
    default:
      return undefined;
  }
}

function mergeMeaning(into: Decision, meaning: NameMeaning): void {
  if (meaning.algorithm) into.algorithm = meaning.algorithm;
  if (meaning.curve) into.curve = meaning.curve;
  if (meaning.keySize !== undefined) into.keySize = meaning.keySize;
}

/** The callee as written, from its first character to the end of the method's name. */
function calleeText(site: CallSite): string {
  const start = Math.min(site.callee.startIndex, site.nameNode.startIndex) - site.node.startIndex;
  const end = site.nameNode.endIndex - site.node.startIndex;
  if (start < 0 || end <= start || end - start > 400) return apiText(site.nameNode);
  return tidy(site.node.text.slice(start, end));
}

function apiText(node: SyntaxNode): string {
  return tidy(node.text);
}

function tidy(raw: string): string {
  const text = raw.replace(/\s+/g, '');
  return text.length > MAX_API_TEXT ? `${text.slice(0, MAX_API_TEXT)}…` : text;
}
