import type { Intent } from '../intent';
import type { ParsedQuestion } from '../parse/question';
import type { ChatMessage, ModelClient } from './client';

/**
 * (a) of the optional model: a question the parser could not place is given to the model with
 * the catalogue of intents (name, summary, the JSON Schema of the parameters, examples) and
 * nothing else: no row, no name, no id of any tenant. Its reply is a proposal only; the caller
 * checks the parameters against the intent's TypeBox schema (Intent.runWith) before anything
 * runs.
 */

export type Translation =
  | { kind: 'none' }
  | { kind: 'proposal'; intent: Intent; parameters: unknown };

function catalogue(intents: readonly Intent[]): string {
  return intents
    .map((intent) =>
      JSON.stringify({
        intent: intent.name,
        summary: intent.summary,
        parameters: intent.parameters,
        examples: intent.examples.slice(0, 2),
      }),
    )
    .join('\n');
}

export function translationPrompt(
  question: ParsedQuestion,
  timeZone: string,
  intents: readonly Intent[],
): ChatMessage[] {
  return [
    {
      role: 'system',
      content: [
        'You map a question about software dependencies and vulnerabilities to one of the intents below.',
        'Reply with JSON only: {"intent": "<name>", "parameters": {...}} where parameters match the',
        'intent\'s JSON Schema exactly (every property, null where unknown), or {"intent": null}',
        'if no intent fits. Periods are {"fromUtc", "toUtc", "label"} in ISO 8601 UTC.',
        `Now is ${question.now.toISOString()}; the asker's time zone is ${timeZone}.`,
        'Intents, one JSON object a line:',
        catalogue(intents),
      ].join('\n'),
    },
    { role: 'user', content: question.text },
  ];
}

/** The JSON object of a reply, fenced in ``` or not. */
export function replyObject(reply: string): Record<string, unknown> | null {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/.exec(reply);
  const text = (fenced?.[1] ?? reply).trim();
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

export async function translateQuestion(
  model: ModelClient,
  question: ParsedQuestion,
  timeZone: string,
  intents: readonly Intent[],
): Promise<Translation> {
  const reply = await model.complete(translationPrompt(question, timeZone, intents));
  if (reply === null) return { kind: 'none' };
  const proposal = replyObject(reply);
  if (!proposal || typeof proposal.intent !== 'string') return { kind: 'none' };
  const intent = intents.find((candidate) => candidate.name === proposal.intent);
  if (!intent) return { kind: 'none' };
  return { kind: 'proposal', intent, parameters: proposal.parameters ?? {} };
}
