import { booleanParam } from '../../api/boolean-param';
import { ok } from '../../api/client';
import { oneOfParam, textParam } from '../../api/query-state';
import { ECOSYSTEMS } from '../../api/triage';
import type { Ok } from '../../api/types';
import { PagedList } from '../../components/PagedList';
import type { Column } from '../../components/VirtualTable';
import { Link } from '../../router';

/**
 * The dependencies of the latest scan. The route pages (take at most 200) and filters on the
 * server (ecosystem, direct, search), so a repository of 20,000 dependencies is read 200 rows
 * at a time and a search runs over all of them; the URL carries the API's parameter names.
 */
type Dependency = Ok<'/api/v1/repositories/{repositoryId}/dependencies'>['items'][number];

const PAGE = 200;

const COLUMNS: readonly Column<Dependency>[] = [
  {
    header: 'Package',
    width: '2fr',
    render: (row) => (
      <Link href={`/packages/${encodeURIComponent(row.packageId)}`}>{row.name}</Link>
    ),
  },
  { header: 'Version', render: (row) => row.version ?? `(${row.resolution})` },
  { header: 'Ecosystem', render: (row) => row.ecosystem },
  { header: 'Kind', render: (row) => (row.direct ? 'direct' : 'transitive') },
  { header: 'Scope', render: (row) => row.scope },
  { header: 'File', width: '1.5fr', render: (row) => row.file },
];

export function DependenciesTab({ repositoryId }: { repositoryId: string }) {
  return (
    <PagedList<Dependency>
      title="Dependencies"
      section={{ scope: repositoryId }}
      pageSize={PAGE}
      filters={[
        { kind: 'search', key: 'search', label: 'Name contains' },
        { kind: 'select', key: 'ecosystem', label: 'Ecosystem', options: ECOSYSTEMS },
        {
          kind: 'select',
          key: 'direct',
          label: 'Direct (true) or transitive (false)',
          options: ['true', 'false'],
        },
      ]}
      load={(api, { search, take, skip }) =>
        ok(
          api.client.GET('/api/v1/repositories/{repositoryId}/dependencies', {
            params: {
              path: { repositoryId },
              query: {
                take,
                skip,
                search: textParam(search, 'search') ?? undefined,
                ecosystem: oneOfParam(search, 'ecosystem', ECOSYSTEMS) ?? undefined,
                direct: booleanParam(search, 'direct') ?? undefined,
              },
            },
          }),
        )
      }
      columns={COLUMNS}
      rowKey={(row) => row.dependencyId}
      empty="No dependencies match these filters."
    />
  );
}
