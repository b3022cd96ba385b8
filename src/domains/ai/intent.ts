import type { Kysely } from 'kysely';
import { type Static, type TSchema, Type } from 'typebox';
import { Compile } from 'typebox/compile';
import type { Feature } from '../../core/plans';
import type { DB } from '../../db/schema';
import type { Period } from './parse/dates';
import type { ParsedQuestion } from './parse/question';

/**
 * An intent (docs/questions.md#intents): one kind of question the service answers, declared
 * once with everything it is: its name, the TypeBox schema of its parameters, the cues that
 * place a question in it, how the parameters are read from a parsed question, the tenant-scoped
 * query that answers it, the answer in words and the citations. Like a job contract
 * (src/jobs/contract.ts), the parameters are checked against the schema before the query runs,
 * whoever produced them.
 */

export type CitationType =
  | 'repository'
  | 'vulnerability'
  | 'exposure'
  | 'package'
  | 'policy'
  | 'policy_violation'
  | 'policy_exception'
  | 'scan'
  | 'cra_clock'
  | 'quantum_finding'
  | 'alert_rule'
  | 'alert'
  | 'cra_product'
  | 'tls_endpoint'
  | 'sbom_export';

/** A record an answer rests on: its id and the API path that returns it. */
export interface Citation {
  type: CitationType;
  id: string;
  path: string;
}

export type Row = Record<string, string | number | boolean | null | string[]>;

export interface Answer {
  kind: 'answer';
  answer: string;
  rows: Row[];
  citations: Citation[];
}

/** A choice of an asked-back question: send `question` to get that answer. */
export interface Choice {
  label: string;
  question: string;
}

/** The question names something that could be several things: the caller picks. */
export interface Clarification {
  kind: 'clarification';
  answer: string;
  choices: Choice[];
  citations: Citation[];
}

export type IntentResult = Answer | Clarification;

export interface IntentContext {
  /** The request's tenant-scoped transaction: row-level security applies to every read. */
  db: Kysely<DB>;
  now: Date;
  timeZone: string;
}

/** A weighted pattern over the normalised question. */
export interface Cue {
  pattern: RegExp;
  weight: number;
}

export type Entity = 'vulnerabilityId' | 'package';

export interface IntentDefinition<S extends TSchema> {
  name: string;
  summary: string;
  parameters: S;
  /** Questions this intent answers: the docs, the 422's suggestions and the corpus's seeds. */
  examples: readonly string[];
  cues: readonly Cue[];
  /** The plan feature whose routes hold these rows: a plan without it is refused (403). */
  feature?: Feature;
  /** An entity without which the question is not this intent. */
  needs?: Entity;
  /** An entity whose presence means the question is another intent's. */
  refuses?: Entity;
  extract: (question: ParsedQuestion) => Static<S>;
  run: (context: IntentContext, parameters: Static<S>) => Promise<IntentResult>;
}

export interface PlannedQuestion {
  intent: Intent;
  parameters: Record<string, unknown>;
  execute: (context: IntentContext) => Promise<IntentResult>;
}

export interface Intent {
  name: string;
  summary: string;
  /** As the definition's: null when every plan may ask. */
  feature: Feature | null;
  parameters: TSchema;
  examples: readonly string[];
  /** How well the question fits (0: not at all). */
  score: (question: ParsedQuestion) => number;
  plan: (question: ParsedQuestion) => PlannedQuestion;
  /** Whether parameters from elsewhere (a model) match the schema. */
  accepts: (parameters: unknown) => boolean;
  /** Runs with parameters from elsewhere (a client, a model): refused unless they match. */
  runWith: (context: IntentContext, parameters: unknown) => Promise<IntentResult>;
}

export class InvalidIntentParameters extends Error {
  constructor(
    readonly intent: string,
    readonly problems: string[],
  ) {
    super(`parameters of ${intent} do not match its schema: ${problems.join('; ')}`);
    this.name = 'InvalidIntentParameters';
  }
}

function has(question: ParsedQuestion, entity: Entity): boolean {
  return entity === 'vulnerabilityId'
    ? question.vulnerabilityIds.length > 0
    : question.packages.length > 0;
}

export function defineIntent<S extends TSchema>(definition: IntentDefinition<S>): Intent {
  const validator = Compile(definition.parameters);
  const checked = (parameters: unknown): Static<S> => {
    if (validator.Check(parameters)) return parameters;
    const problems = validator
      .Errors(parameters)
      .map((e) => `${e.instancePath || '/'} ${e.message}`);
    throw new InvalidIntentParameters(definition.name, problems);
  };
  const intent: Intent = {
    name: definition.name,
    summary: definition.summary,
    feature: definition.feature ?? null,
    parameters: definition.parameters,
    examples: definition.examples,
    score: (question) => {
      if (definition.needs && !has(question, definition.needs)) return 0;
      if (definition.refuses && has(question, definition.refuses)) return 0;
      let total = 0;
      for (const cue of definition.cues) {
        if (cue.pattern.test(question.normalised)) total += cue.weight;
      }
      return total;
    },
    plan: (question) => {
      const parameters = checked(definition.extract(question));
      return {
        intent,
        parameters: parameters as Record<string, unknown>,
        execute: (context) => definition.run(context, parameters),
      };
    },
    accepts: (parameters) => validator.Check(parameters),
    runWith: (context, parameters) => definition.run(context, checked(parameters)),
  };
  return intent;
}

// Shared parameter shapes.

export const PeriodParameter = Type.Union([
  Type.Object({
    fromUtc: Type.String({ format: 'date-time' }),
    toUtc: Type.String({ format: 'date-time' }),
    label: Type.String(),
  }),
  Type.Null(),
]);
export type PeriodValue = Static<typeof PeriodParameter>;

export function periodValue(period: Period | null): PeriodValue {
  return period
    ? { fromUtc: period.from.toISOString(), toUtc: period.to.toISOString(), label: period.label }
    : null;
}

/** A default window ending now, when the question named none. */
export function periodOrLast(question: ParsedQuestion, days: number) {
  if (question.period) return periodValue(question.period);
  const { now } = question;
  const from = new Date(now.getTime() - days * 86_400_000);
  return { fromUtc: from.toISOString(), toUtc: now.toISOString(), label: `last ${days} days` };
}

export const Severity = Type.Union([
  Type.Literal('low'),
  Type.Literal('medium'),
  Type.Literal('high'),
  Type.Literal('critical'),
]);

export const PackageParameter = Type.Union([
  Type.Object({
    name: Type.String({ minLength: 1, maxLength: 300 }),
    ecosystem: Type.Union([Type.String(), Type.Null()]),
    version: Type.Union([Type.String(), Type.Null()]),
  }),
  Type.Null(),
]);

export const Limit = Type.Integer({ minimum: 1, maximum: 100 });

export const answer = (text: string, rows: Row[], citations: Citation[]): Answer => ({
  kind: 'answer',
  answer: text,
  rows,
  citations,
});
