import type { SbomErrors } from './types';

/** Errors beyond this many are summarised: a hostile document must not make a huge response. */
const MAX_REPORTED_ERRORS = 50;

/** Field errors of a document, keyed by path, capped; plus warnings that never fail a read. */
export class ReadCollector {
  readonly errors: SbomErrors = {};
  readonly warnings: string[] = [];
  private errorCount = 0;

  error(path: string, message: string): void {
    this.errorCount++;
    if (this.errorCount > MAX_REPORTED_ERRORS) return;
    if (!this.errors[path]) this.errors[path] = [];
    this.errors[path].push(message);
  }

  warn(message: string): void {
    // Warnings go to the scan log; a few hundred lines say everything a person reads.
    if (this.warnings.length < 200) this.warnings.push(message);
  }

  get failed(): boolean {
    return this.errorCount > 0;
  }

  /** The errors, with a note on how many more were not listed. */
  result(): SbomErrors {
    if (this.errorCount > MAX_REPORTED_ERRORS) {
      return {
        ...this.errors,
        $: [`${this.errorCount - MAX_REPORTED_ERRORS} more errors were not listed`],
      };
    }
    return this.errors;
  }
}

export { isObject } from '../core/json-values';

/** Own property only: a document's `__proto__` or `constructor` keys are data, never inherited. */
export function field(object: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}

/** Longest text kept from a document field (names, versions, purls): longer is an error. */
export const MAX_TEXT = 2048;

/**
 * An optional string field: undefined when absent (or null), the trimmed text when a string,
 * and an error at `path` otherwise. Empty strings count as absent.
 */
export function optionalText(
  object: Record<string, unknown>,
  key: string,
  path: string,
  collector: ReadCollector,
): string | undefined {
  const value = field(object, key);
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') {
    collector.error(path, 'must be a string');
    return undefined;
  }
  if (value.length > MAX_TEXT) {
    collector.error(path, `must be at most ${MAX_TEXT} characters`);
    return undefined;
  }
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

/** An optional array field: undefined when absent, an error when present and not an array. */
export function optionalArray(
  object: Record<string, unknown>,
  key: string,
  path: string,
  collector: ReadCollector,
): unknown[] | undefined {
  const value = field(object, key);
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) {
    collector.error(path, 'must be an array');
    return undefined;
  }
  return value;
}
