import { ok } from '../api/client';
import { oneOfParam, textParam } from '../api/query-state';
import type { Ok } from '../api/types';
import { PagedList } from '../components/PagedList';
import type { Column } from '../components/VirtualTable';
import { dateTime } from '../format';
import { Link } from '../router';

/** The Repositories list: the PagedList pattern with the API's filters. */
type Repository = Ok<'/api/v1/repositories'>['items'][number];

const CRITICALITY = ['critical', 'high', 'medium', 'low'] as const;
const LIFECYCLE = ['active', 'maintenance', 'deprecated', 'archived'] as const;

const COLUMNS: readonly Column<Repository>[] = [
  {
    header: 'Repository',
    width: '2fr',
    render: (row) => (
      <Link href={`/repositories/${encodeURIComponent(row.repositoryId)}`}>{row.fullName}</Link>
    ),
  },
  { header: 'Criticality', render: (row) => row.businessCriticality ?? 'not set' },
  { header: 'Lifecycle', render: (row) => row.lifecycleStatus },
  { header: 'Provider', render: (row) => row.provider },
  { header: 'Last scan', width: '1.4fr', render: (row) => dateTime(row.lastScannedAtUtc) },
];

export default function Repositories() {
  return (
    <PagedList<Repository>
      title="Repositories"
      filters={[
        { kind: 'search', key: 'search', label: 'Name contains', placeholder: 'owner/name' },
        { kind: 'select', key: 'businessCriticality', label: 'Criticality', options: CRITICALITY },
        { kind: 'select', key: 'lifecycleStatus', label: 'Lifecycle', options: LIFECYCLE },
      ]}
      load={(api, { search, take, skip }) =>
        ok(
          api.client.GET('/api/v1/repositories', {
            params: {
              query: {
                take,
                skip,
                search: textParam(search, 'search') ?? undefined,
                businessCriticality:
                  oneOfParam(search, 'businessCriticality', CRITICALITY) ?? undefined,
                lifecycleStatus: oneOfParam(search, 'lifecycleStatus', LIFECYCLE) ?? undefined,
              },
            },
          }),
        )
      }
      columns={COLUMNS}
      rowKey={(row) => row.repositoryId}
      empty="No repositories match these filters."
    />
  );
}
