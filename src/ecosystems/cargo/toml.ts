import { parse } from 'smol-toml';

/**
 * smol-toml with the hostile-input settings used by both Cargo extractors: `__proto__` /
 * `constructor` keys are dropped and inline nesting is capped far below the default 1,000.
 */
export function parseToml(text: string): Record<string, unknown> {
  return parse(text, { unsafeKeyBehaviour: 'drop', maxDepth: 64 }) as Record<string, unknown>;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * First line of a parser error, with its line number when smol-toml knows it and it is meaningful
 * (not for a chunk parsed on its own, whose lines are relative).
 */
export function tomlErrorMessage(error: unknown, withLine = true): string {
  if (!(error instanceof Error)) return String(error);
  const first = error.message.split('\n')[0] ?? '';
  const line = (error as { line?: unknown }).line;
  return withLine && typeof line === 'number' ? `${first} (line ${line})` : first;
}
