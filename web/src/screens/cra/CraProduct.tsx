import { ok } from '../../api/client';
import type { Ok } from '../../api/types';
import { Empty, ErrorPanel, Loading } from '../../components/status';
import { dateTime } from '../../format';
import { Link } from '../../router';
import type { ScreenProps } from '../../routes';
import { useLoad } from '../../use-load';
import { Assessments } from './Assessments';
import { CraFindings } from './CraFindings';
import { ClockTable } from './parts';
import { ReportPacks } from './ReportPacks';

/**
 * One CRA product: its facts and conformity route, report packs (request, wait, download), its
 * findings (state filter and page in the URL), Article 13 duties, Annex I and Article 14 clocks.
 */
type Product = Ok<'/api/v1/cra/products/{productId}'>;

export default function CraProduct({ params }: ScreenProps) {
  const productId = params.productId ?? '';
  const result = useLoad(async (api) => {
    const path = { productId };
    const [product, clocks] = await Promise.all([
      ok(api.client.GET('/api/v1/cra/products/{productId}', { params: { path } })),
      ok(api.client.GET('/api/v1/cra/products/{productId}/clocks', { params: { path } })),
    ]);
    return { product, clocks: clocks.items };
  }, `product|${productId}`);
  return (
    <section aria-labelledby="screen-title">
      <h1 id="screen-title">
        {result.state === 'ok' ? `CRA product: ${result.data.product.name}` : 'CRA product'}
      </h1>
      <p>
        <Link href="/cra">All CRA products</Link>
      </p>
      {result.state === 'loading' && <Loading label="Loading the product" />}
      {result.state === 'error' && <ErrorPanel problem={result.problem} onRetry={result.reload} />}
      {result.state === 'ok' && (
        <>
          <Facts product={result.data.product} />
          <ReportPacks productId={productId} />
          <CraFindings productId={productId} />
          <Assessments productId={productId} />
          <section class="panel" aria-labelledby="product-clocks">
            <h2 id="product-clocks">Article 14 clocks</h2>
            {result.data.clocks.length === 0 ? (
              <Empty>No clock has started for this product.</Empty>
            ) : (
              <ClockTable label="Product clocks" clocks={result.data.clocks} />
            )}
          </section>
        </>
      )}
    </section>
  );
}

function Facts({ product }: { product: Product }) {
  const route = product.conformityRoute;
  return (
    <section class="panel" aria-labelledby="product-facts">
      <h2 id="product-facts">Product</h2>
      <dl class="facts">
        <dt>Version line</dt>
        <dd>{product.versionLine}</dd>
        <dt>Manufacturer</dt>
        <dd>{product.manufacturer}</dd>
        <dt>Class</dt>
        <dd>
          {product.classification}
          {product.categoryTitle && ` (${product.categoryTitle})`}
        </dd>
        <dt>Conformity route</dt>
        <dd>
          {route.modules.join(', ') || 'none'}
          {route.thirdPartyRequired ? ', third party required' : ''}: {route.description} (
          {route.legalBasis})
        </dd>
        <dt>Support period ends</dt>
        <dd>{product.supportPeriodEnd ?? 'not set'}</dd>
        <dt>Security contact</dt>
        <dd>{product.securityContact ?? 'not set'}</dd>
        <dt>Vulnerability disclosure policy</dt>
        <dd>{product.cvdPolicyUrl ?? 'not set'}</dd>
        <dt>Repositories</dt>
        <dd>{product.repositoryIds.length}</dd>
        <dt>Updated</dt>
        <dd>{dateTime(product.updatedAtUtc)}</dd>
      </dl>
    </section>
  );
}
