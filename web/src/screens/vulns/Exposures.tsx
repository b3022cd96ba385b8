import { ok } from '../../api/client';
import { oneOfParam, textParam } from '../../api/query-state';
import {
  ECOSYSTEMS,
  EXPOSURE_STATUSES,
  FINDING_KINDS,
  REACHABILITIES,
  SEVERITIES,
} from '../../api/triage';
import type { Ok } from '../../api/types';
import { PagedList } from '../../components/PagedList';
import type { Column } from '../../components/VirtualTable';
import { dateTime } from '../../format';
import { Link, useLocation, useQueryState } from '../../router';

/** The tenant's vulnerability exposures with every filter the list route takes. */
type Exposure = Ok<'/api/v1/vulnerability-exposures'>['items'][number];

const POSSIBLY = ['true', 'false'] as const;

const COLUMNS: readonly Column<Exposure>[] = [
  {
    header: 'Vulnerability',
    width: '1.4fr',
    render: (row) => (
      <Link href={`/exposures/${encodeURIComponent(row.exposureId)}`}>{row.canonicalId}</Link>
    ),
  },
  {
    header: 'Package',
    width: '1.6fr',
    render: (row) => `${row.packageName}@${row.version ?? row.resolution}`,
  },
  { header: 'Severity', width: '0.8fr', render: (row) => row.severity ?? 'unrated' },
  { header: 'Status', width: '1fr', render: (row) => row.status },
  { header: 'Reachability', width: '1fr', render: (row) => row.reachability },
  { header: 'Last seen', width: '1.3fr', render: (row) => dateTime(row.lastSeenUtc) },
];

export default function Exposures() {
  return (
    <PagedList<Exposure>
      title="Exposures"
      intro={<NarrowedBy />}
      filters={[
        { kind: 'select', key: 'severity', label: 'Severity', options: SEVERITIES },
        { kind: 'select', key: 'status', label: 'Status', options: EXPOSURE_STATUSES },
        { kind: 'select', key: 'ecosystem', label: 'Ecosystem', options: ECOSYSTEMS },
        { kind: 'select', key: 'reachability', label: 'Reachability', options: REACHABILITIES },
        { kind: 'select', key: 'kind', label: 'Kind', options: FINDING_KINDS },
        { kind: 'select', key: 'possiblyAffected', label: 'Possibly affected', options: POSSIBLY },
        { kind: 'search', key: 'repositoryId', label: 'Repository id' },
      ]}
      load={(api, { search, take, skip }) => {
        const possibly = oneOfParam(search, 'possiblyAffected', POSSIBLY);
        return ok(
          api.client.GET('/api/v1/vulnerability-exposures', {
            params: {
              query: {
                take,
                skip,
                severity: oneOfParam(search, 'severity', SEVERITIES) ?? undefined,
                status: oneOfParam(search, 'status', EXPOSURE_STATUSES) ?? undefined,
                ecosystem: oneOfParam(search, 'ecosystem', ECOSYSTEMS) ?? undefined,
                reachability: oneOfParam(search, 'reachability', REACHABILITIES) ?? undefined,
                kind: oneOfParam(search, 'kind', FINDING_KINDS) ?? undefined,
                possiblyAffected: possibly === null ? undefined : possibly === 'true',
                repositoryId: textParam(search, 'repositoryId') ?? undefined,
                vulnerabilityId: textParam(search, 'vulnerabilityId') ?? undefined,
                packageId: textParam(search, 'packageId') ?? undefined,
                triageRuleId: textParam(search, 'triageRuleId') ?? undefined,
              },
            },
          }),
        );
      }}
      columns={COLUMNS}
      rowKey={(row) => row.exposureId}
      empty="No exposures match these filters."
    />
  );
}

/** Filters the links of other screens set that the filter bar has no control for. */
function NarrowedBy() {
  const { search } = useLocation();
  const { setFilter } = useQueryState();
  const keys = ['vulnerabilityId', 'packageId', 'triageRuleId'] as const;
  const given = keys.filter((key) => textParam(search, key) !== null);
  if (given.length === 0) return null;
  return (
    <p class="notice">
      Narrowed to {given.map((key) => `${key} ${textParam(search, key)}`).join(', ')}.{' '}
      <button
        type="button"
        class="secondary"
        onClick={() => setFilter(Object.fromEntries(keys.map((key) => [key, null])))}
      >
        Show all
      </button>
    </p>
  );
}
