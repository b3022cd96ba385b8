import { ok } from '../../api/client';
import { offsetPageInfo, offsetRequest } from '../../api/paging';
import { intParam, oneOfParam } from '../../api/query-state';
import type { Ok } from '../../api/types';
import { FilterBar } from '../../components/FilterBar';
import { Pager } from '../../components/PagedList';
import { Empty, ErrorPanel, Loading } from '../../components/status';
import { type Column, VirtualTable } from '../../components/VirtualTable';
import { dateTime } from '../../format';
import { useLocation } from '../../router';
import { useLoad } from '../../use-load';
import { CRA_FINDING_STATES } from './labels';

/**
 * A product's findings (GET /api/v1/cra/findings?productId=): filter `state` and `page` in the
 * URL. The CRA state follows the exposure or violation behind it; the API has no route to change
 * it here, so the list offers no moves (triage happens on the exposure).
 */
type Finding = Ok<'/api/v1/cra/findings'>['items'][number];

const PAGE_SIZE = 50;

const COLUMNS: readonly Column<Finding>[] = [
  {
    header: 'Finding',
    width: '1.6fr',
    render: (row) => row.canonicalId ?? (row.source === 'policy_violation' ? 'policy' : 'finding'),
  },
  {
    header: 'Package',
    width: '1.6fr',
    render: (row) => `${row.packageName}${row.version ? `@${row.version}` : ''}`,
  },
  { header: 'Severity', render: (row) => row.severity ?? 'none' },
  { header: 'State', render: (row) => row.state.replace('_', ' ') },
  {
    header: 'Exploited',
    render: (row) =>
      row.knownExploited ? (
        <strong class="warn">yes (KEV)</strong>
      ) : row.activelyExploited ? (
        <strong class="warn">yes</strong>
      ) : (
        'no'
      ),
  },
  {
    header: 'Fix',
    render: (row) =>
      row.fixedVersions.length > 0
        ? row.fixedVersions.join(', ')
        : row.fixReleased === false
          ? 'none released'
          : 'unknown',
  },
  { header: 'Detected', width: '1.4fr', render: (row) => dateTime(row.detectedAtUtc) },
];

export function CraFindings({ productId }: { productId: string }) {
  const { search } = useLocation();
  const page = intParam(search, 'page', 0);
  const state = oneOfParam(search, 'state', CRA_FINDING_STATES);
  const result = useLoad(
    (api) =>
      ok(
        api.client.GET('/api/v1/cra/findings', {
          params: {
            query: { productId, state: state ?? undefined, ...offsetRequest(page, PAGE_SIZE) },
          },
        }),
      ),
    `findings|${productId}|${search}`,
  );
  return (
    <section class="panel" aria-labelledby="product-findings">
      <h2 id="product-findings">Findings</h2>
      <FilterBar
        label="Finding filters"
        fields={[{ kind: 'select', key: 'state', label: 'State', options: CRA_FINDING_STATES }]}
      />
      {result.state === 'loading' && <Loading label="Loading the findings" />}
      {result.state === 'error' && <ErrorPanel problem={result.problem} onRetry={result.reload} />}
      {result.state === 'ok' &&
        (result.data.items.length === 0 ? (
          <Empty>No findings{state ? ` in state ${state}` : ''} for this product.</Empty>
        ) : (
          <>
            <VirtualTable
              label="Findings"
              rows={result.data.items}
              columns={COLUMNS}
              rowKey={(row) => row.findingId}
              height={Math.min(480, 36 * result.data.items.length + 4)}
            />
            <Pager info={offsetPageInfo(result.data)} />
          </>
        ))}
    </section>
  );
}
