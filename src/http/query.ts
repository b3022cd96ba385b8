import { type TOptional, type TString, Type } from 'typebox';
import { badRequest } from '../core/problem';
import { INT32_MAX } from './validators';

/**
 * Shared query helpers: take/skip paging, case-insensitive enum filters and UTC time windows.
 * Unknown query parameters are ignored by every route (no additionalProperties checks on queries).
 */
export const DEFAULT_TAKE = 50;
export const MAX_TAKE = 200;
/**
 * The contract types take and skip as int32: larger values (and non-integers, Infinity) are a
 * 400; a take above MAX_TAKE is clamped and echoed.
 */
export const MAX_SKIP = INT32_MAX;

export const TakeSkipQuery = {
  take: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: INT32_MAX,
      description: `Page size (default ${DEFAULT_TAKE}, clamped to ${MAX_TAKE})`,
    }),
  ),
  skip: Type.Optional(
    Type.Integer({ minimum: 0, maximum: MAX_SKIP, description: 'Offset (default 0)' }),
  ),
};

export const TakeOnlyQuery = {
  take: TakeSkipQuery.take,
};

export const TimeWindowQuery = {
  fromUtc: Type.Optional(Type.String({ format: 'date-time' })),
  toUtc: Type.Optional(Type.String({ format: 'date-time' })),
};

export interface Page {
  take: number;
  skip: number;
}

/** Applies defaults and the clamp; the echoed values are what the response reports. */
export function pageOf(
  query: { take?: number; skip?: number },
  defaults: { take?: number; max?: number } = {},
): Page {
  const max = defaults.max ?? MAX_TAKE;
  const take = Math.min(query.take ?? defaults.take ?? DEFAULT_TAKE, max);
  return { take, skip: query.skip ?? 0 };
}

function fold(value: string): string {
  return value.replace(/[_\-\s.]/g, '').toLowerCase();
}

/**
 * A string query parameter whose values are matched against `members` case-insensitively (typed
 * `string | undefined`: `parseEnum` narrows it to a member or answers 400).
 */
export function enumQuery(members: readonly string[], description?: string): TOptional<TString> {
  return Type.Optional(
    Type.String({
      description: `${description ?? 'One of'} ${members.join(', ')} (case-insensitive; PascalCase accepted)`,
    }),
  );
}

/**
 * Parses an enum filter: `Npm`, `npm` and `NPM` all give `npm`; `NotAffected` gives `not_affected`.
 * Unknown members are a 400 with the parameter named in `errors`.
 */
export function parseEnum<T extends string>(
  name: string,
  value: string | undefined,
  members: readonly T[],
): T | undefined {
  if (value === undefined || value === '') return undefined;
  const wanted = fold(value);
  const match = members.find((member) => fold(member) === wanted);
  if (!match) {
    throw badRequest(`Unknown ${name} "${value}".`, {
      [name]: [`must be one of ${members.join(', ')}`],
    });
  }
  return match;
}

export interface TimeWindow {
  from: Date | undefined;
  to: Date | undefined;
}

/** `fromUtc`/`toUtc` (already format-checked by the schema) as Dates; from after to is a 400. */
export function parseTimeWindow(
  query: { fromUtc?: string; toUtc?: string },
  names: { from: string; to: string } = { from: 'fromUtc', to: 'toUtc' },
): TimeWindow {
  const from = query.fromUtc ? new Date(query.fromUtc) : undefined;
  const to = query.toUtc ? new Date(query.toUtc) : undefined;
  if (from && to && from > to) {
    throw badRequest('The time window ends before it starts.', {
      [names.from]: [`must not be after ${names.to}`],
    });
  }
  return { from, to };
}
