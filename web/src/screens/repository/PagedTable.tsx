import type { ComponentChildren } from 'preact';
import type { Api } from '../../api/client';
import { type OffsetEnvelope, offsetPageInfo, offsetRequest } from '../../api/paging';
import { intParam } from '../../api/query-state';
import { FilterBar, type FilterField } from '../../components/FilterBar';
import { Pager } from '../../components/PagedList';
import { Empty, ErrorPanel, Loading } from '../../components/status';
import { type Column, VirtualTable } from '../../components/VirtualTable';
import { useLocation } from '../../router';
import { useLoad } from '../../use-load';

/**
 * PagedList's pattern inside a section of a detail screen (an h2, not the screen's h1): filters
 * in the URL under the API's names, one take/skip page per query, a VirtualTable and a Pager.
 */
export interface PagedTableProps<T> {
  title: string;
  filters?: readonly FilterField[];
  pageSize?: number;
  load: (
    api: Api,
    request: { search: string; take: number; skip: number },
  ) => Promise<OffsetEnvelope & { items: readonly T[] }>;
  columns: readonly Column<T>[];
  rowKey: (row: T) => string;
  empty: ComponentChildren;
  /** Part of the reload key beyond the URL query (e.g. the repository). */
  scope: string;
}

export function PagedTable<T>(props: PagedTableProps<T>) {
  const { search } = useLocation();
  const pageSize = props.pageSize ?? 50;
  const page = intParam(search, 'page', 0);
  const result = useLoad(
    (api) => props.load(api, { search, ...offsetRequest(page, pageSize) }),
    `${props.scope}|${search}|${pageSize}`,
  );
  return (
    <section aria-labelledby="section-title" class="section">
      <h2 id="section-title">{props.title}</h2>
      {props.filters && <FilterBar fields={props.filters} label={`${props.title} filters`} />}
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
