import { ok } from '../../api/client';
import { oneOfParam } from '../../api/query-state';
import type { Ok } from '../../api/types';
import { PagedList } from '../../components/PagedList';
import type { Column } from '../../components/VirtualTable';
import { dateTime } from '../../format';
import { Link } from '../../router';
import { CRA_CLASSES } from './labels';

/**
 * The CRA start: the tenant's products (filter `class` as the API names it), each linking to its
 * findings, duties, Annex I, clocks and report packs; and the clocks falling due.
 */
type Product = Ok<'/api/v1/cra/products'>['items'][number];

const COLUMNS: readonly Column<Product>[] = [
  {
    header: 'Product',
    width: '2fr',
    render: (row) => (
      <Link href={`/cra/products/${encodeURIComponent(row.productId)}`}>{row.name}</Link>
    ),
  },
  { header: 'Version line', render: (row) => row.versionLine },
  { header: 'Class', render: (row) => row.classification },
  { header: 'Support ends', render: (row) => row.supportPeriodEnd ?? 'not set' },
  { header: 'Repositories', align: 'end', render: (row) => row.repositoryIds.length },
  { header: 'Updated', width: '1.4fr', render: (row) => dateTime(row.updatedAtUtc) },
];

export default function Cra() {
  return (
    <PagedList<Product>
      title="CRA products"
      intro={
        <p>
          <Link href="/cra/clocks?withinHours=168">Article 14 clocks due within 7 days</Link>
        </p>
      }
      filters={[{ kind: 'select', key: 'class', label: 'CRA class', options: CRA_CLASSES }]}
      load={(api, { search, take, skip }) =>
        ok(
          api.client.GET('/api/v1/cra/products', {
            params: {
              query: { take, skip, class: oneOfParam(search, 'class', CRA_CLASSES) ?? undefined },
            },
          }),
        )
      }
      columns={COLUMNS}
      rowKey={(row) => row.productId}
      empty="No CRA products match. Create one through the API (POST /api/v1/cra/products)."
    />
  );
}
