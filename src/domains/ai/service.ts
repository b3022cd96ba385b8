import type { Kysely } from 'kysely';
import { FEATURES, planHas, type Plan as TenantPlan } from '../../core/plans';
import { forbidden, unprocessable } from '../../core/problem';
import type { DB } from '../../db/schema';
import type { TenantWork } from '../../http/scope';
import { placeQuestion } from './engine';
import { type Intent, type IntentResult, InvalidIntentParameters } from './intent';
import type { ModelClient } from './model/client';
import { phraseAnswer } from './model/phrase';
import { translateQuestion } from './model/translate';
import { isTimeZone } from './parse/dates';
import { type ParsedQuestion, parseQuestion } from './parse/question';
import { INTENTS } from './registry';

/**
 * Answers a question (docs/questions.md): parse (pure), place it in an intent, read the
 * parameters, run the intent's tenant-scoped query. A question no intent takes, or one asking to
 * change something, is a 422 whose `errors.suggestions` lists questions that can be answered.
 *
 * No transaction is open while the optional model works (docs/questions.md#the-optional-model):
 * a translation happens before the transaction that runs the intent, the wording after it has
 * committed, so a slow model holds no pooled connection.
 */

export interface AskRequest {
  question: string;
  timeZone?: string;
}

export interface AskOutcome {
  question: string;
  intent: { name: string; parameters: Record<string, unknown> };
  result: IntentResult;
  timeZone: string;
  answeredAt: Date;
  /** What the optional model did: placed the question (the parser could not), worded the answer. */
  model: { translated: boolean; phrased: boolean };
}

/** What the audit entry gets to know, set before the answer so a refused question is audited too. */
export type AuditNote = (intent: string | null) => void;

const notUnderstood = (suggestions: string[]) =>
  unprocessable('The question could not be placed in any intent the service answers.', {
    question: ['not understood; try one of the suggested questions'],
    suggestions,
  });

interface Plan {
  intent: Intent;
  parameters: Record<string, unknown>;
  run: (context: { db: Kysely<DB>; now: Date; timeZone: string }) => Promise<IntentResult>;
  translated: boolean;
}

/**
 * The parser's placement, else (with a model) the model's proposal, whose parameters are checked
 * against the intent's schema before it runs: a proposal that does not match is the same 422.
 */
async function planQuestion(
  parsed: ParsedQuestion,
  timeZone: string,
  model: ModelClient | null,
  note: AuditNote,
): Promise<Plan> {
  const placement = placeQuestion(parsed);
  if (placement.kind === 'read_only') {
    note(null);
    throw unprocessable('Questions only read data; this one asks to change something.', {
      question: ['questions are read-only: use the API operation that makes the change'],
    });
  }
  if (placement.kind === 'placed') {
    const planned = placement.intent.plan(parsed);
    note(placement.intent.name);
    return { ...planned, run: planned.execute, translated: false };
  }
  const translation = model
    ? await translateQuestion(model, parsed, timeZone, INTENTS)
    : { kind: 'none' as const };
  if (translation.kind === 'none' || !translation.intent.accepts(translation.parameters)) {
    note(null);
    throw notUnderstood(placement.suggestions);
  }
  const { intent, parameters } = translation;
  note(intent.name);
  return {
    intent,
    parameters: parameters as Record<string, unknown>,
    run: (context) => intent.runWith(context, parameters),
    translated: true,
  };
}

/** Who asks: the tenant's transactions, and its plan (an intent of a feature it lacks is a 403). */
export interface Asker {
  inTenant: TenantWork;
  plan: TenantPlan;
}

export async function askQuestion(
  { inTenant, plan: tenantPlan }: Asker,
  request: AskRequest,
  note: AuditNote = () => {},
  now = new Date(),
  model: ModelClient | null = null,
): Promise<AskOutcome> {
  const timeZone = request.timeZone ?? 'UTC';
  if (!isTimeZone(timeZone)) {
    throw unprocessable('The time zone is not a known IANA time zone.', {
      timeZone: [`unknown time zone "${timeZone}"; use an IANA name such as Europe/Berlin`],
    });
  }
  const parsed = parseQuestion(request.question, now, timeZone);
  // Outside any transaction: the model may translate here.
  const plan = await planQuestion(parsed, timeZone, model, note);
  const feature = plan.intent.feature;
  if (feature && !planHas(tenantPlan, feature)) {
    throw forbidden(`The ${tenantPlan} plan does not include: ${FEATURES[feature]}.`);
  }
  let result: IntentResult;
  try {
    result = await inTenant((db) => plan.run({ db, now, timeZone }));
  } catch (error) {
    if (error instanceof InvalidIntentParameters) throw notUnderstood([]);
    throw error;
  }
  // The rows are read and the transaction is closed: the model may word the answer.
  let phrased = false;
  if (model && result.kind === 'answer') {
    const wording = await phraseAnswer(model, parsed.text, plan.intent.name, result);
    if (wording !== null) {
      result = { ...result, answer: wording };
      phrased = true;
    }
  }
  return {
    question: parsed.text,
    intent: { name: plan.intent.name, parameters: plan.parameters },
    result,
    timeZone,
    answeredAt: now,
    model: { translated: plan.translated, phrased },
  };
}

export function presentAnswer(outcome: AskOutcome) {
  const { result } = outcome;
  return {
    question: outcome.question,
    kind: result.kind,
    answer: result.answer,
    intent: outcome.intent,
    rows: result.kind === 'answer' ? result.rows : [],
    citations: result.citations,
    choices: result.kind === 'clarification' ? result.choices : [],
    model: outcome.model,
    timeZone: outcome.timeZone,
    answeredAtUtc: outcome.answeredAt.toISOString(),
  };
}
