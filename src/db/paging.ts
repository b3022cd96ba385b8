import type { SelectQueryBuilder } from 'kysely';

/** A take/skip window over a list (the contract's offset paging). */
export interface TakeSkip {
  take: number;
  skip: number;
}

export interface TakeSkipPage<Row> {
  rows: Row[];
  /** How many rows the whole filtered list has. */
  total: number;
}

interface OrderedRows<Row> {
  limit(take: number): { offset(skip: number): { execute(): Promise<Row[]> } };
}

/**
 * One page of a filtered list and the list's size, side by side on one connection: `filtered`
 * holds the filters only, `ordered` adds the columns and a total order to it.
 */
export async function takeSkipPage<D, TB extends keyof D, O, Row>(
  filtered: SelectQueryBuilder<D, TB, O>,
  ordered: (query: SelectQueryBuilder<D, TB, O>) => OrderedRows<Row>,
  page: TakeSkip,
): Promise<TakeSkipPage<Row>> {
  const [rows, count] = await Promise.all([
    ordered(filtered).limit(page.take).offset(page.skip).execute(),
    // The selection's type does not resolve over a generic table set; it is one count column.
    filtered
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .$castTo<{ n: string }>()
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}
