import type { FieldErrors } from '../../core/problem';

/**
 * The health signals and their default weights (docs/package-intelligence.md#health). A tenant's
 * weights replace these (PATCH /api/v1/tenants/current/scoring-weights): non-negative numbers
 * summing to 100; a signal left out weighs 0.
 */
export const SIGNAL_KEYS = [
  'maintenanceRecency',
  'releaseCadence',
  'maintainers',
  'deprecation',
  'vulnerabilities',
  'licence',
  'repository',
  'installScripts',
  'popularity',
] as const;
export type SignalKey = (typeof SIGNAL_KEYS)[number];
export type ScoringWeights = Record<SignalKey, number>;

export const DEFAULT_WEIGHTS: ScoringWeights = {
  maintenanceRecency: 20,
  releaseCadence: 10,
  maintainers: 10,
  deprecation: 15,
  vulnerabilities: 15,
  licence: 10,
  repository: 5,
  installScripts: 5,
  popularity: 10,
};

const EPSILON = 1e-6;

export type WeightsCheck =
  | { ok: true; weights: ScoringWeights }
  | { ok: false; errors: FieldErrors };

/** Validates a weights object as sent (any JSON); errors are keyed by signal name. */
export function checkWeights(input: unknown): WeightsCheck {
  // No prototype: a key named `constructor` or `__proto__` is reported like any other.
  const errors: FieldErrors = Object.create(null);
  const add = (field: string, message: string) => {
    errors[field] ??= [];
    errors[field].push(message);
  };
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    return { ok: false, errors: { '': ['must be an object of signal weights'] } };
  }
  const weights = Object.fromEntries(SIGNAL_KEYS.map((key) => [key, 0])) as ScoringWeights;
  for (const [key, value] of Object.entries(input as Record<string, unknown>)) {
    if (!(SIGNAL_KEYS as readonly string[]).includes(key)) {
      add(key, `is not a signal; signals are ${SIGNAL_KEYS.join(', ')}`);
      continue;
    }
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      add(key, 'must be a number');
      continue;
    }
    if (value < 0) {
      add(key, 'must not be negative');
      continue;
    }
    weights[key as SignalKey] = value;
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const sum = SIGNAL_KEYS.reduce((total, key) => total + weights[key], 0);
  if (Math.abs(sum - 100) > EPSILON) {
    return { ok: false, errors: { weights: [`must sum to 100 (they sum to ${round(sum)})`] } };
  }
  return { ok: true, weights };
}

function round(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

/** Stored weights (jsonb) back to a full object; anything odd falls back to the defaults. */
export function weightsFromStored(stored: unknown): ScoringWeights {
  const check = checkWeights(stored);
  return check.ok ? check.weights : { ...DEFAULT_WEIGHTS };
}
