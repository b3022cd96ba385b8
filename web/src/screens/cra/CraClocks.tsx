import { ok } from '../../api/client';
import { intParam } from '../../api/query-state';
import { Empty, ErrorPanel, Loading } from '../../components/status';
import { dateTime } from '../../format';
import { Link, useQueryState } from '../../router';
import { useLoad } from '../../use-load';
import { ClockTable } from './parts';

/**
 * Article 14 clocks falling due (GET /api/v1/cra/clocks/due): `withinHours` lives in the URL
 * (the Overview links 168); the service orders them, overdue first.
 */
const CHOICES = [24, 72, 168, 720] as const;
const MAX_HOURS = 8784;

export default function CraClocks() {
  const { search, setFilter } = useQueryState();
  const withinHours = intParam(search, 'withinHours', 24, MAX_HOURS);
  const result = useLoad(async (api) => {
    const [clocks, products] = await Promise.all([
      ok(api.client.GET('/api/v1/cra/clocks/due', { params: { query: { withinHours } } })),
      ok(api.client.GET('/api/v1/cra/products', { params: { query: { take: 200 } } })),
    ]);
    return { ...clocks, names: new Map(products.items.map((p) => [p.productId, p.name])) };
  }, `clocks|${withinHours}`);
  const options = CHOICES.some((hours) => hours === withinHours)
    ? CHOICES
    : [...CHOICES, withinHours].sort((a, b) => a - b);
  return (
    <section aria-labelledby="screen-title">
      <h1 id="screen-title">CRA clocks due</h1>
      <p>
        <Link href="/cra">All CRA products</Link>
      </p>
      <form class="filters" aria-label="Filters" onSubmit={(event) => event.preventDefault()}>
        <label for="filter-withinHours">
          Due within
          <select
            id="filter-withinHours"
            value={String(withinHours)}
            onChange={(event) => setFilter({ withinHours: event.currentTarget.value })}
          >
            {options.map((hours) => (
              <option key={hours} value={String(hours)}>
                {hours} hours
              </option>
            ))}
          </select>
        </label>
      </form>
      {result.state === 'loading' && <Loading label="Loading the clocks" />}
      {result.state === 'error' && <ErrorPanel problem={result.problem} onRetry={result.reload} />}
      {result.state === 'ok' && (
        <>
          <p class="muted">
            Running clocks due by {dateTime(result.data.untilUtc)} ({result.data.withinHours}{' '}
            hours), overdue ones first.
          </p>
          {result.data.items.length === 0 ? (
            <Empty>No running clock falls due within {result.data.withinHours} hours.</Empty>
          ) : (
            <ClockTable
              label="Clocks due"
              clocks={result.data.items}
              productName={(id) => result.data.names.get(id) ?? `product ${id.slice(0, 8)}`}
            />
          )}
        </>
      )}
    </section>
  );
}
