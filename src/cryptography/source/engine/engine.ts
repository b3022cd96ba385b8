/**
 * The one rule engine: matches a file's call sites and library constants against a language's
 * API tables (rules.ts) and collects the uses and algorithms found into one report (report.ts).
 *
 * Path rules (`applyRules`) take call sites whose callee the language's reader resolved to a
 * canonical path. API tables (`MatchEngine`) take call sites as written and look their
 * qualified names up with the file's imports; calls that return key objects make the methods
 * called on those keys uses of the same family. Pure and bounded: values are followed at most
 * MAX_DEPTH names deep, so cyclic bindings end.
 */
import type { SyntaxNode } from '../parser.js';
import type { SourceFileReport, SourceLanguage } from '../types.js';
import {
  cipherName,
  curveMeaning,
  hashName,
  joseAlgorithm,
  keyTypeName,
  type NameMeaning,
  signatureName,
} from './names.js';
import { type ReportBuilder, reportBuilder } from './report.js';
import {
  type ApiRule,
  type ApiTables,
  type ArgRef,
  type ArgRule,
  argumentIn,
  type Decision,
  type LanguageReader,
  type MethodRule,
  type PartialUse,
  type Reading,
  type RuleContext,
  type RuleSet,
  type Site,
  type TableSite,
} from './rules.js';
import { lineOf, tidyApi } from './syntax.js';
import { UNKNOWN, type Value } from './values.js';

const MAX_DEPTH = 24;
/** Values computed per file at most: a hostile file of chained names cannot make it slow. */
const MAX_EVALUATIONS = 200_000;
const AGREEMENT_ONLY: ReadonlySet<string> = new Set(['DH', 'ECDH', 'X25519', 'X448']);

interface Outcome {
  decision: Decision;
  returnsKey: boolean;
  material?: boolean | undefined;
  consumed: SyntaxNode[];
}

export class MatchEngine {
  private readonly collected: ReportBuilder;
  private readonly consumed: [number, number][] = [];
  private readonly callValues = new Map<number, Value>();
  private evaluations = 0;

  constructor(
    readonly tables: ApiTables,
    readonly reader: LanguageReader,
  ) {
    this.collected = reportBuilder(reader.language);
  }

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
  callValue(site: TableSite, depth: number): Value {
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
  outcome(site: TableSite, depth: number): Outcome | null {
    if (site.segments) {
      const rule = this.tables.calls.lookup(site.segments, this.reader.expand(site.segments));
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

  private applyApi(rule: ApiRule, site: TableSite, depth: number): Outcome | null {
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
    site: TableSite,
    depth: number,
    receiver: PartialUse,
  ): Outcome | null {
    const consumed: SyntaxNode[] = [];
    const base: PartialUse = { ...receiver, primitive: rule.primitive };
    if (rule.algorithm) base.algorithm = rule.algorithm;
    if (rule.curve) base.curve = rule.curve;
    const decision = this.readArgs(base, rule.args ?? [], site, depth, consumed);
    return decision ? { decision, returnsKey: rule.returnsKey ?? false, consumed } : null;
  }

  /** A known method on an unknown receiver, made a use by an argument such as an RSA padding. */
  private hinted(site: TableSite, depth: number): Outcome | null {
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
    base: PartialUse,
    rules: readonly ArgRule[],
    site: TableSite,
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

  /** The argument a reference names, looking into an option map for `property` references. */
  private argument(site: TableSite, ref: ArgRef, depth: number): SyntaxNode | undefined {
    return argumentIn(site, ref, (node) => this.value(node, depth));
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
    if (decision.record)
      this.collected.algorithm(line, decision.record.algorithm, decision.record.kind);
    let { primitive, algorithm } = decision;
    if (!primitive || !algorithm) return;
    // A key made only for key agreement (DH, ECDH, X25519) is reported as key agreement.
    if (primitive === 'key-generation' && AGREEMENT_ONLY.has(algorithm)) {
      primitive = 'key-agreement';
    }
    // An EC key used for key agreement is ECDH, whatever made the key.
    if (primitive === 'key-agreement' && algorithm === 'ECDSA') algorithm = 'ECDH';
    this.collected.use(at.id, line, api, {
      primitive,
      algorithm,
      curve: decision.curve,
      keySize: decision.keySize,
    });
  }

  report(): SourceFileReport {
    return this.collected.build();
  }
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
function calleeText(site: TableSite): string {
  const start = Math.min(site.callee.startIndex, site.nameNode.startIndex) - site.node.startIndex;
  const end = site.nameNode.endIndex - site.node.startIndex;
  if (start < 0 || end <= start || end - start > 400) return apiText(site.nameNode);
  return tidyApi(site.node.text.slice(start, end));
}

function apiText(node: SyntaxNode): string {
  return tidyApi(node.text);
}

/** Path-rule matching of one file: call sites and references, into one report. */
export interface PathMatcher {
  apply(calls: readonly Site[], references: readonly Site[], rules: RuleSet): void;
  report(): SourceFileReport;
}

export function pathMatcher(
  language: SourceLanguage,
  evaluator: Pick<RuleContext, 'value' | 'imports'>,
): PathMatcher {
  const consumed = new Set<number>();
  const report = reportBuilder(language);
  const ctx = {
    value: evaluator.value,
    consume: (node: SyntaxNode) => consumed.add(node.id),
    imports: evaluator.imports,
    consumed,
  };
  return {
    apply: (calls, references, rules) => applyRules(calls, references, rules, ctx, report),
    report: () => report.build(),
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
      if (emissions.length > 0 && site.receiver) ctx.consume(site.receiver);
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
