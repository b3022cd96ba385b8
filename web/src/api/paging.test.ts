import { describe, expect, it } from 'vitest';
import { collectCursorPages, cursorPageInfo, offsetPageInfo, offsetRequest } from './paging';
import { intParam, oneOfParam, textParam, withFilter, withQuery } from './query-state';

describe('offset paging (take/skip)', () => {
  it('asks for page n as skip = n * take', () => {
    expect(offsetRequest(0, 50)).toEqual({ take: 50, skip: 0 });
    expect(offsetRequest(3, 50)).toEqual({ take: 50, skip: 150 });
    expect(offsetRequest(-2, 50)).toEqual({ take: 50, skip: 0 });
  });

  it('uses the echoed take and skip and the estimate', () => {
    const info = offsetPageInfo({
      items: new Array(25).fill(0),
      take: 25,
      skip: 50,
      totalEstimate: 120,
    });
    expect(info).toEqual({
      from: 51,
      to: 75,
      total: 120,
      totalIsEstimate: true,
      page: 2,
      hasPrevious: true,
      hasNext: true,
    });
  });

  it('stops at a short page whatever the estimate says', () => {
    const info = offsetPageInfo({ items: [1, 2], take: 25, skip: 0, totalEstimate: 500 });
    expect(info.hasNext).toBe(false);
    expect(info.hasPrevious).toBe(false);
  });

  it('stops at a full last page when an exact total says so', () => {
    const info = offsetPageInfo({ items: [1, 2], take: 2, skip: 2, total: 4 });
    expect(info).toMatchObject({
      hasNext: false,
      total: 4,
      totalIsEstimate: false,
      from: 3,
      to: 4,
    });
  });

  it('reads an empty page as rows 0 to 0', () => {
    expect(offsetPageInfo({ items: [], take: 50, skip: 0, totalEstimate: 0 })).toMatchObject({
      from: 0,
      to: 0,
      hasNext: false,
    });
  });
});

describe('cursor paging', () => {
  it('follows nextCursor until hasMore is false', async () => {
    const pages: Record<string, { items: number[]; hasMore: boolean; nextCursor: string | null }> =
      {
        start: { items: [1, 2], hasMore: true, nextCursor: 'b' },
        b: { items: [3], hasMore: true, nextCursor: 'c' },
        c: { items: [4], hasMore: false, nextCursor: null },
      };
    const asked: (string | null)[] = [];
    const all = await collectCursorPages(async (cursor) => {
      asked.push(cursor);
      const page = pages[cursor ?? 'start'];
      if (!page) throw new Error('unknown cursor');
      return page;
    });
    expect(all).toEqual([1, 2, 3, 4]);
    expect(asked).toEqual([null, 'b', 'c']);
  });

  it('refuses a repeated cursor instead of looping', async () => {
    await expect(
      collectCursorPages(async () => ({ items: [1], hasMore: true, nextCursor: 'same' })),
    ).rejects.toThrow(/repeated/);
  });

  it('stops at the limit', async () => {
    let n = 0;
    const all = await collectCursorPages(
      async () => ({ items: [n++, n++], hasMore: true, nextCursor: `c${n}` }),
      5,
    );
    expect(all).toEqual([0, 1, 2, 3, 4]);
  });

  it('describes the neighbours of a cursor page', () => {
    expect(cursorPageInfo({ items: [], hasMore: true, nextCursor: 'x' }, null)).toEqual({
      hasNext: true,
      nextCursor: 'x',
      isFirst: true,
    });
    expect(cursorPageInfo({ items: [], hasMore: false, nextCursor: 'x' }, 'y')).toEqual({
      hasNext: false,
      nextCursor: null,
      isFirst: false,
    });
  });
});

describe('URL query state', () => {
  it('sets, removes and sorts parameters, percent-encoding values', () => {
    expect(withQuery('?b=2&a=1', { c: 'x y/z', a: null })).toBe('?b=2&c=x+y%2Fz');
    expect(withQuery('?a=1', { a: '' })).toBe('');
    expect(withQuery('', { page: 2 })).toBe('?page=2');
  });

  it('returns to the first page when a filter changes', () => {
    expect(withFilter('?page=4&cursor=abc&severity=high', { severity: 'critical' })).toBe(
      '?severity=critical',
    );
  });

  it('reads typed parameters and ignores bad ones', () => {
    expect(textParam('?q=%20', 'q')).toBeNull();
    expect(textParam('?q=lodash', 'q')).toBe('lodash');
    expect(oneOfParam('?s=high', 's', ['low', 'high'] as const)).toBe('high');
    expect(oneOfParam('?s=HIGH', 's', ['low', 'high'] as const)).toBeNull();
    expect(intParam('?page=3', 'page', 0)).toBe(3);
    expect(intParam('?page=-1', 'page', 0)).toBe(0);
    expect(intParam('?page=1e3', 'page', 0)).toBe(0);
    expect(intParam('?page=99999999', 'page', 0, 1000)).toBe(0);
  });
});
