import type { Answer } from '../intent';
import type { ChatMessage, ModelClient } from './client';

/**
 * (b) of the optional model: the answer worded from the cited rows. The model gets the question,
 * the intent, the engine's own wording and the rows (the asking tenant's, read in its
 * tenant-scoped transaction: nothing else exists to send). Its text is used only if every number
 * in it (digits, or a number word up to twenty) appears in the rows, the engine's answer or the
 * question; else the engine's wording stands.
 */

const MAX_ROWS_SENT = 50;
const MAX_WORDING_CHARS = 1_500;

const NUMBER_WORDS = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
  'twenty',
];

/** Record ids are not numbers: their digits would let almost any invented number through. */
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** Every number a text states, as digits ("1,234" and "1234" alike; "three" is 3). */
export function numbersIn(raw: string): string[] {
  const text = raw.replace(UUID, ' ');
  const digits = (text.match(/\d[\d,]*(?:\.\d+)?/g) ?? []).map((n) =>
    n.replace(/,(?=\d{3}\b)/g, '').replace(/,$/, ''),
  );
  const words = (text.toLowerCase().match(/[a-z]+/g) ?? [])
    .map((word) => NUMBER_WORDS.indexOf(word))
    .filter((index) => index >= 0)
    .map(String);
  return [...digits, ...words];
}

/** The model's wording, if every number in it is one the facts hold. */
export function checkedWording(wording: string, facts: string[]): string | null {
  const text = wording.trim();
  if (text.length === 0 || text.length > MAX_WORDING_CHARS) return null;
  const known = new Set(facts.flatMap(numbersIn));
  // Parts of numbers too: "4.17.20" in a row holds 4, 17 and 20.
  for (const fact of facts) {
    for (const part of fact.replace(UUID, ' ').match(/\d+/g) ?? []) known.add(part);
  }
  return numbersIn(text).every((n) => known.has(n)) ? text : null;
}

export function phrasingPrompt(question: string, intent: string, answer: Answer): ChatMessage[] {
  return [
    {
      role: 'system',
      content: [
        'Rewrite the answer to the question in one to three plain sentences for a security engineer.',
        'Use only facts from the rows and the draft answer. Do not add, compute or estimate any',
        'number: every number you write must appear in the rows or the draft. Reply with the text only.',
      ].join(' '),
    },
    {
      role: 'user',
      content: JSON.stringify({
        question,
        intent,
        draft: answer.answer,
        rowCount: answer.rows.length,
        rows: answer.rows.slice(0, MAX_ROWS_SENT),
      }),
    },
  ];
}

export async function phraseAnswer(
  model: ModelClient,
  question: string,
  intent: string,
  answer: Answer,
): Promise<string | null> {
  const reply = await model.complete(phrasingPrompt(question, intent, answer));
  if (reply === null) return null;
  const facts = [
    answer.answer,
    question,
    String(answer.rows.length),
    JSON.stringify(answer.rows.slice(0, MAX_ROWS_SENT)),
  ];
  return checkedWording(reply, facts);
}
