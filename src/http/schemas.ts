import { type TSchema, Type } from 'typebox';
import { ProblemSchema } from '../core/problem';

/** Shared response shapes: the counter styles of the Pagination table. */
export const DateTime = Type.String({ format: 'date-time' });
/**
 * A type array rather than anyOf: the response serializer handles it directly, where anyOf
 * makes it validate each value to pick a branch (measured: 35 µs → 20 µs for 50 list items).
 */
export const NullableDateTime = Type.Unsafe<string | null>({
  type: ['string', 'null'],
  format: 'date-time',
});

/** Nullable string without anyOf (see NullableDateTime). */
export const NullableString = Type.Unsafe<string | null>({ type: ['string', 'null'] });
export const Uuid = Type.String({ format: 'uuid' });

export function TotalEstimatePage<T extends TSchema>(item: T) {
  return Type.Object({
    items: Type.Array(item),
    totalEstimate: Type.Integer(),
    take: Type.Integer(),
    skip: Type.Integer(),
  });
}

export function TotalReturnedPage<T extends TSchema>(item: T) {
  return Type.Object({
    items: Type.Array(item),
    totalReturned: Type.Integer(),
    take: Type.Integer(),
    skip: Type.Integer(),
  });
}

export function TotalList<T extends TSchema>(item: T) {
  return Type.Object({ items: Type.Array(item), total: Type.Integer() });
}

export function CursorPage<T extends TSchema>(item: T) {
  return Type.Object({
    items: Type.Array(item),
    hasMore: Type.Boolean(),
    nextCursor: Type.Union([Type.String(), Type.Null()]),
  });
}

export function ItemsList<T extends TSchema>(item: T) {
  return Type.Object({ items: Type.Array(item) });
}

const problemRef = Type.Ref('Problem');

/** Error responses every route can return, plus the ones it names. */
export function withErrors(
  success: Record<number, TSchema>,
  statuses: number[] = [],
  options: { authenticated?: boolean } = {},
): Record<number, TSchema> {
  const all = new Set([400, 429, 500, ...statuses]);
  if (options.authenticated !== false) {
    all.add(401);
    all.add(403);
  }
  const responses: Record<number, TSchema> = { ...success };
  for (const status of [...all].sort()) responses[status] = problemRef;
  return responses;
}

export const UuidParam = (name: string) => Type.Object({ [name]: Uuid });

export { ProblemSchema };
