import type { Kysely } from 'kysely';
import { unprocessable } from '../../core/problem';
import type { DB } from '../../db/schema';
import { placeQuestion } from './engine';
import type { IntentResult } from './intent';
import { isTimeZone } from './parse/dates';
import { parseQuestion } from './parse/question';

/**
 * Answers a question (docs/questions.md): parse (pure), place it in an intent, read the
 * parameters, run the intent's tenant-scoped query. A question no intent takes, or one asking to
 * change something, is a 422 whose `errors.suggestions` lists questions that can be answered.
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
}

/** What the audit entry gets to know, set before the answer so a refused question is audited too. */
export type AuditNote = (intent: string | null) => void;

export async function askQuestion(
  db: Kysely<DB>,
  request: AskRequest,
  note: AuditNote = () => {},
  now = new Date(),
): Promise<AskOutcome> {
  const timeZone = request.timeZone ?? 'UTC';
  if (!isTimeZone(timeZone)) {
    throw unprocessable('The time zone is not a known IANA time zone.', {
      timeZone: [`unknown time zone "${timeZone}"; use an IANA name such as Europe/Berlin`],
    });
  }
  const parsed = parseQuestion(request.question, now, timeZone);
  const placement = placeQuestion(parsed);
  if (placement.kind === 'read_only') {
    note(null);
    throw unprocessable('Questions only read data; this one asks to change something.', {
      question: ['questions are read-only: use the API operation that makes the change'],
    });
  }
  if (placement.kind === 'unplaced') {
    note(null);
    throw unprocessable('The question could not be placed in any intent the service answers.', {
      question: ['not understood; try one of the suggested questions'],
      suggestions: placement.suggestions,
    });
  }
  const planned = placement.intent.plan(parsed);
  note(placement.intent.name);
  const result = await planned.execute({ db, now, timeZone });
  return {
    question: parsed.text,
    intent: { name: placement.intent.name, parameters: planned.parameters },
    result,
    timeZone,
    answeredAt: now,
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
    timeZone: outcome.timeZone,
    answeredAtUtc: outcome.answeredAt.toISOString(),
  };
}
