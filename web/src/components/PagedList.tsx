import type { ComponentChildren } from 'preact';
import type { Api } from '../api/client';
import { type OffsetEnvelope, offsetPageInfo, offsetRequest, type PageInfo } from '../api/paging';
import { intParam } from '../api/query-state';
import { useLocation, useQueryState } from '../router';
import { useLoad } from '../use-load';
import { FilterBar, type FilterField } from './FilterBar';
import { Empty, ErrorPanel, Loading } from './status';
import { type Column, VirtualTable } from './VirtualTable';

/**
 * The paged list screen pattern (web/README.md): a heading, a FilterBar bound to the URL, one
 * take/skip page loaded per query (the page number is `page` in the URL, zero-based), the rows
 * in a VirtualTable, and a Pager. A screen supplies the call, the columns and the filters.
 */
export interface PagedListProps<T> {
  title: string;
  intro?: ComponentChildren;
  filters?: readonly FilterField[];
  pageSize?: number;
  /** One page: pass `search` (the URL query) through to the API's filters. */
  load: (
    api: Api,
    request: { search: string; take: number; skip: number },
  ) => Promise<OffsetEnvelope & { items: readonly T[] }>;
  columns: readonly Column<T>[];
  rowKey: (row: T) => string;
  /** Shown when the page is empty. */
  empty: ComponentChildren;
}

export function PagedList<T>(props: PagedListProps<T>) {
  const { search } = useLocation();
  const pageSize = props.pageSize ?? 50;
  const page = intParam(search, 'page', 0);
  const result = useLoad(
    (api) => props.load(api, { search, ...offsetRequest(page, pageSize) }),
    `${search}|${pageSize}`,
  );
  return (
    <section aria-labelledby="screen-title">
      <h1 id="screen-title">{props.title}</h1>
      {props.intro}
      {props.filters && <FilterBar fields={props.filters} />}
      {result.state === 'loading' && <Loading />}
      {result.state === 'error' && <ErrorPanel problem={result.problem} onRetry={result.reload} />}
      {result.state === 'ok' &&
        (result.data.items.length === 0 ? (
          <Empty>{props.empty}</Empty>
        ) : (
          <>
            <VirtualTable
              label={props.title}
              rows={result.data.items}
              columns={props.columns}
              rowKey={props.rowKey}
              height={Math.min(600, 36 * result.data.items.length + 4)}
            />
            <Pager info={offsetPageInfo(result.data)} />
          </>
        ))}
    </section>
  );
}

/** Previous and next page links (real links: they carry the query, so they can be shared). */
export function Pager({ info }: { info: PageInfo }) {
  const { setQuery } = useQueryState();
  const total =
    info.total === null
      ? ''
      : ` of ${info.totalIsEstimate ? 'about ' : ''}${info.total.toLocaleString('en')}`;
  return (
    <nav class="pager" aria-label="Pages">
      <button
        type="button"
        disabled={!info.hasPrevious}
        onClick={() => setQuery({ page: info.page - 1 || null })}
      >
        Previous page
      </button>
      <span aria-live="polite">
        Rows {info.from.toLocaleString('en')}–{info.to.toLocaleString('en')}
        {total}
      </span>
      <button
        type="button"
        disabled={!info.hasNext}
        onClick={() => setQuery({ page: info.page + 1 })}
      >
        Next page
      </button>
    </nav>
  );
}
