import { ok } from '../../api/client';
import type { Ok } from '../../api/types';
import { PagedList } from '../../components/PagedList';
import type { Column } from '../../components/VirtualTable';
import { dateTime } from '../../format';
import { Link } from '../../router';

/** The packages the tenant watches (GET /packages/watched), newest watch first. */
type Watched = Ok<'/api/v1/packages/watched'>['items'][number];

const COLUMNS: readonly Column<Watched>[] = [
  {
    header: 'Package',
    width: '2fr',
    render: (row) => (
      <Link href={`/packages/${encodeURIComponent(row.packageId)}`}>{row.name}</Link>
    ),
  },
  { header: 'Ecosystem', render: (row) => row.ecosystem },
  { header: 'Latest stable', render: (row) => row.latestStableVersion ?? 'unknown' },
  { header: 'Deprecated', render: (row) => (row.deprecated ? 'deprecated' : 'no') },
  { header: 'Note', render: (row) => row.note ?? '' },
  { header: 'Watched since', width: '1.4fr', render: (row) => dateTime(row.watchedAtUtc) },
];

export default function WatchedPackages() {
  return (
    <PagedList<Watched>
      title="Watched packages"
      intro={
        <p>
          <Link href="/packages">All packages</Link>
        </p>
      }
      load={(api, { take, skip }) =>
        ok(api.client.GET('/api/v1/packages/watched', { params: { query: { take, skip } } }))
      }
      columns={COLUMNS}
      rowKey={(row) => row.watchId}
      empty="No watched packages yet: open a package and choose Watch."
    />
  );
}
