/**
 * The spec's two paging styles (api-spec "Pagination"): take/skip with a counter (totalEstimate,
 * total or totalReturned), and cursors (hasMore + nextCursor). Pages live in the URL query
 * (`page`, `cursor`), so a paged view can be shared.
 */

export interface OffsetEnvelope {
  items: readonly unknown[];
  take: number;
  skip: number;
  totalEstimate?: number;
  total?: number;
}

export interface PageInfo {
  /** 1-based first and last row of this page (0 and 0 when empty). */
  from: number;
  to: number;
  /** The counter the endpoint gives: exact, estimated, or null when it gives none. */
  total: number | null;
  totalIsEstimate: boolean;
  /** Zero-based page number, as kept in the URL. */
  page: number;
  hasPrevious: boolean;
  hasNext: boolean;
}

/** take/skip for zero-based `page` of `pageSize` rows. */
export function offsetRequest(page: number, pageSize: number): { take: number; skip: number } {
  const safePage = Number.isInteger(page) && page > 0 ? page : 0;
  return { take: pageSize, skip: safePage * pageSize };
}

/**
 * What a page says about its neighbours. Uses the echoed take and skip (the server may clamp);
 * a page shorter than take is the last one (the spec's stop rule), whatever the estimate says.
 */
export function offsetPageInfo(envelope: OffsetEnvelope): PageInfo {
  const { items, take, skip } = envelope;
  const total = envelope.total ?? envelope.totalEstimate ?? null;
  const full = take > 0 && items.length >= take;
  const belowTotal = total === null || skip + items.length < total;
  return {
    from: items.length === 0 ? 0 : skip + 1,
    to: skip + items.length,
    total,
    totalIsEstimate: envelope.total === undefined && envelope.totalEstimate !== undefined,
    page: take > 0 ? Math.floor(skip / take) : 0,
    hasPrevious: skip > 0,
    hasNext: full && belowTotal,
  };
}

export interface CursorEnvelope<T> {
  items: readonly T[];
  hasMore: boolean;
  nextCursor: string | null;
}

/** Every item of a cursor-paged collection, page by page, up to `limit` items. */
export async function collectCursorPages<T>(
  fetchPage: (cursor: string | null) => Promise<CursorEnvelope<T>>,
  limit = 10_000,
): Promise<T[]> {
  const all: T[] = [];
  let cursor: string | null = null;
  const seen = new Set<string>();
  for (;;) {
    const page = await fetchPage(cursor);
    all.push(...page.items);
    if (!page.hasMore || page.nextCursor === null || all.length >= limit) break;
    // A server that repeats a cursor would loop forever.
    if (seen.has(page.nextCursor)) throw new Error('the service repeated a paging cursor');
    seen.add(page.nextCursor);
    cursor = page.nextCursor;
  }
  return all.slice(0, limit);
}

/** The neighbours of a cursor page kept in the URL: the next cursor, and whether one follows. */
export function cursorPageInfo<T>(envelope: CursorEnvelope<T>, current: string | null) {
  return {
    hasNext: envelope.hasMore && envelope.nextCursor !== null,
    nextCursor: envelope.hasMore ? envelope.nextCursor : null,
    isFirst: current === null,
  };
}
