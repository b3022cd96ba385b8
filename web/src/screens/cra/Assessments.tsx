import { ok } from '../../api/client';
import type { Ok } from '../../api/types';
import { Empty, ErrorPanel, Loading } from '../../components/status';
import { useLoad } from '../../use-load';
import { type SimpleColumn, SimpleTable } from './parts';

/** A product's Article 13 duties and Annex I requirements, each with its status and evidence. */
type Item = Ok<'/api/v1/cra/annex-i'>['items'][number];

const COLUMNS: readonly SimpleColumn<Item>[] = [
  { header: 'Reference', render: (row) => row.reference },
  { header: 'Requirement', render: (row) => row.title },
  { header: 'Status', render: (row) => row.status.replace('_', ' ') },
  { header: 'Basis', render: (row) => row.basis },
  {
    header: 'Evidence',
    render: (row) =>
      row.evidence.length === 0 && !row.note ? (
        <span class="muted">none</span>
      ) : (
        [...row.evidence, ...(row.note ? [`Note: ${row.note}`] : [])].join('; ')
      ),
  },
];

export function Assessments({ productId }: { productId: string }) {
  const result = useLoad(async (api) => {
    const query = { productId };
    const [duties, annex] = await Promise.all([
      ok(api.client.GET('/api/v1/cra/duties', { params: { query } })),
      ok(api.client.GET('/api/v1/cra/annex-i', { params: { query } })),
    ]);
    return { duties: duties.items, annex: annex.items };
  }, `assessments|${productId}`);
  if (result.state === 'loading') return <Loading label="Loading duties and Annex I" />;
  if (result.state === 'error') {
    return <ErrorPanel problem={result.problem} onRetry={result.reload} />;
  }
  return (
    <>
      <AssessmentPanel id="duties" title="Article 13 duties" rows={result.data.duties} />
      <AssessmentPanel id="annex-i" title="Annex I requirements" rows={result.data.annex} />
    </>
  );
}

function AssessmentPanel({ id, title, rows }: { id: string; title: string; rows: Item[] }) {
  return (
    <section class="panel" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {rows.length === 0 ? (
        <Empty>Nothing to show.</Empty>
      ) : (
        <SimpleTable label={title} rows={rows} columns={COLUMNS} rowKey={(row) => row.id} />
      )}
    </section>
  );
}
