import type { Intent } from './intent';
import type { ParsedQuestion } from './parse/question';
import { INTENTS } from './registry';

/**
 * Picks the intent of a parsed question (pure): each intent scores the question by its cues; the
 * best at or above MIN_SCORE wins, ties going to the earlier intent of the registry.
 */
export const MIN_SCORE = 4;

export type Placement =
  | { kind: 'placed'; intent: Intent; score: number }
  | { kind: 'read_only' }
  | { kind: 'unplaced'; suggestions: string[] };

const FALLBACK_SUGGESTIONS = 4;

export function placeQuestion(question: ParsedQuestion, intents = INTENTS): Placement {
  if (question.asksToWrite) return { kind: 'read_only' };
  const scored = intents
    .map((intent, order) => ({ intent, order, score: intent.score(question) }))
    .sort((a, b) => b.score - a.score || a.order - b.order);
  const [best] = scored;
  if (best && best.score >= MIN_SCORE)
    return { kind: 'placed', intent: best.intent, score: best.score };
  return {
    kind: 'unplaced',
    suggestions: suggestionsFor(
      scored.filter((s) => s.score > 0).map((s) => s.intent),
      intents,
    ),
  };
}

/** A few questions the service can answer, from the intents closest to the one asked. */
export function suggestionsFor(close: readonly Intent[], intents: readonly Intent[]): string[] {
  const picked = close.length > 0 ? close.slice(0, 3) : intents.slice(0, FALLBACK_SUGGESTIONS);
  const suggestions = picked.flatMap((intent) =>
    intent.examples.slice(0, close.length > 0 ? 2 : 1),
  );
  return [...new Set(suggestions)].slice(0, 5);
}
