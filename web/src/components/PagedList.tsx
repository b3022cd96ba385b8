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
 * The paged list pattern (web/README.md): a heading, a FilterBar bound to the URL, one take/skip
 * page loaded per query (the page number is `page` in the URL, zero-based), the rows in a
 * VirtualTable, and a Pager. A screen supplies the call, the columns and the filters. As a whole
 * screen its heading is the h1; as a section of a detail screen (`section`), an h2.
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
  /** A section of a detail screen: an h2, and `scope` (e.g. the repository) joins the reload key. */
  section?: { scope: string };
}

export function PagedList<T>(props: PagedListProps<T>) {
  const { search } = useLocation();
  const pageSize = props.pageSize ?? 50;
  const page = intParam(search, 'page', 0);
  const result = useLoad(
    (api) => props.load(api, { search, ...offsetRequest(page, pageSize) }),
    `${props.section?.scope ?? ''}|${search}|${pageSize}`,
  );
  const headingId = props.section ? 'section-title' : 'screen-title';
  return (
    <section aria-labelledby={headingId} class={props.section ? 'section' : undefined}>
      {props.section ? (
        <h2 id={headingId}>{props.title}</h2>
      ) : (
        <h1 id={headingId}>{props.title}</h1>
      )}
      {props.intro}
      {props.filters && (
        <FilterBar
          fields={props.filters}
          label={props.section ? `${props.title} filters` : undefined}
        />
      )}
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
