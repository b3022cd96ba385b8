import { ok } from '../../api/client';
import { oneOfParam, textParam } from '../../api/query-state';
import { ECOSYSTEMS } from '../../api/triage';
import type { Ok } from '../../api/types';
import { PagedList } from '../../components/PagedList';
import type { Column } from '../../components/VirtualTable';
import { Link } from '../../router';

/** The package catalogue the tenant sees (GET /packages), by ecosystem and name search. */
type Package = Ok<'/api/v1/packages'>['items'][number];

const COLUMNS: readonly Column<Package>[] = [
  {
    header: 'Package',
    width: '2fr',
    render: (row) => (
      <Link href={`/packages/${encodeURIComponent(row.packageId)}`}>{row.name}</Link>
    ),
  },
  { header: 'Ecosystem', render: (row) => row.ecosystem },
  { header: 'Latest stable', render: (row) => row.latestStableVersion ?? 'unknown' },
  { header: 'Licence', render: (row) => row.licence ?? 'unknown' },
  { header: 'Deprecated', render: (row) => (row.deprecated ? 'deprecated' : 'no') },
  { header: 'Registry data', render: (row) => row.metadataStatus.replace('_', ' ') },
];

export default function Packages() {
  return (
    <PagedList<Package>
      title="Packages"
      intro={
        <p class="muted">
          Packages your repositories use or you watch.{' '}
          <Link href="/packages/watched">Watched packages</Link>
        </p>
      }
      filters={[
        { kind: 'search', key: 'search', label: 'Name contains' },
        { kind: 'select', key: 'ecosystem', label: 'Ecosystem', options: ECOSYSTEMS },
      ]}
      load={(api, { search, take, skip }) =>
        ok(
          api.client.GET('/api/v1/packages', {
            params: {
              query: {
                take,
                skip,
                search: textParam(search, 'search') ?? undefined,
                ecosystem: oneOfParam(search, 'ecosystem', ECOSYSTEMS) ?? undefined,
              },
            },
          }),
        )
      }
      columns={COLUMNS}
      rowKey={(row) => row.packageId}
      empty="No packages match these filters."
    />
  );
}
