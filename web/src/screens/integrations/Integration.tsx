import { useState } from 'preact/hooks';
import { done, ok } from '../../api/client';
import { offsetPageInfo, offsetRequest } from '../../api/paging';
import { intParam } from '../../api/query-state';
import type { Ok } from '../../api/types';
import { Pager } from '../../components/PagedList';
import { SecretOnce } from '../../components/SecretOnce';
import { Empty, ErrorPanel, Loading } from '../../components/status';
import { allows, useApp } from '../../context';
import { dateTime } from '../../format';
import { Link, navigate, useLocation } from '../../router';
import type { ScreenProps } from '../../routes';
import { useAction } from '../../use-action';
import { useLoad } from '../../use-load';
import { IntegrationEditor } from './IntegrationEditor';

/**
 * One integration: its fields, the edit form, a test delivery (the queued delivery the API
 * answers with is shown, and its outcome appears in the log as the worker delivers it), and
 * the delivery log, paged with `page` in the URL.
 */
type Integration = Ok<'/api/v1/integrations/{integrationId}'>;
type Delivery = Ok<'/api/v1/integrations/{integrationId}/deliveries'>['items'][number];

const PAGE = 20;

export default function IntegrationScreen({ params }: ScreenProps) {
  const integrationId = params.integrationId ?? '';
  const { search } = useLocation();
  const page = intParam(search, 'page', 0);
  const item = useLoad(
    (api) =>
      ok(
        api.client.GET('/api/v1/integrations/{integrationId}', {
          params: { path: { integrationId } },
        }),
      ),
    integrationId,
  );
  const log = useLoad(
    (api) =>
      ok(
        api.client.GET('/api/v1/integrations/{integrationId}/deliveries', {
          params: { path: { integrationId }, query: offsetRequest(page, PAGE) },
        }),
      ),
    `${integrationId}|${page}`,
  );
  return (
    <section aria-labelledby="screen-title">
      <h1 id="screen-title">
        {item.state === 'ok' ? `Integration: ${item.data.name}` : 'Integration'}
      </h1>
      <p>
        <Link href="/integrations">All integrations</Link>
      </p>
      {item.state === 'loading' && <Loading />}
      {item.state === 'error' && <ErrorPanel problem={item.problem} onRetry={item.reload} />}
      {item.state === 'ok' && (
        <Details
          integration={item.data}
          onChanged={() => {
            item.reload();
            log.reload();
          }}
          onDelivered={log.reload}
        />
      )}
      <h2>Delivery log</h2>
      <button type="button" class="secondary" onClick={log.reload}>
        Refresh the log
      </button>
      {log.state === 'loading' && <Loading label="Loading deliveries" />}
      {log.state === 'error' && <ErrorPanel problem={log.problem} onRetry={log.reload} />}
      {log.state === 'ok' && log.data.items.length === 0 && <Empty>No deliveries yet.</Empty>}
      {log.state === 'ok' && log.data.items.length > 0 && (
        <>
          <DeliveryTable rows={log.data.items} />
          <Pager info={offsetPageInfo(log.data)} />
        </>
      )}
    </section>
  );
}

function Details({
  integration,
  onChanged,
  onDelivered,
}: {
  integration: Integration;
  /** The integration changed: reload it (this component remounts) and its log. */
  onChanged: () => void;
  /** A delivery was queued: reload only the log, so the answer shown here stays. */
  onDelivered: () => void;
}) {
  const { api, principal } = useApp();
  const canWrite = allows(principal, { feature: 'integrations', roles: ['admin'] });
  const [tested, setTested] = useState<Delivery | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const action = useAction();
  const path = { params: { path: { integrationId: integration.integrationId } } };

  const test = async () => {
    const delivery = await action.run(() =>
      ok(api.client.POST('/api/v1/integrations/{integrationId}/test', path)),
    );
    if (delivery) {
      setTested(delivery);
      onDelivered();
    }
  };
  const rotate = async () => {
    if (!window.confirm('Replace the signing secret? The old one stops working at once.')) return;
    const rotated = await action.run(() =>
      ok(api.client.POST('/api/v1/integrations/{integrationId}/rotate-secret', path)),
    );
    if (rotated) setSecret(rotated.secret);
  };
  const remove = async () => {
    if (!window.confirm(`Delete ${integration.name} and its delivery log?`)) return;
    const removed = await action.run(() =>
      done(api.client.DELETE('/api/v1/integrations/{integrationId}', path)).then(() => true),
    );
    if (removed) navigate('/integrations');
  };

  return (
    <>
      <dl class="facts">
        <dt>Kind</dt>
        <dd>{integration.kind}</dd>
        <dt>URL</dt>
        <dd class="wrap">{integration.url}</dd>
        <dt>Status</dt>
        <dd>
          {integration.status}
          {integration.disabledReason && ` (${integration.disabledReason})`}
        </dd>
        <dt>Last success</dt>
        <dd>{dateTime(integration.lastSuccessAtUtc)}</dd>
        <dt>Last failure</dt>
        <dd>{dateTime(integration.lastFailureAtUtc)}</dd>
      </dl>
      {canWrite && (
        <div class="row">
          <button type="button" disabled={action.busy} onClick={test}>
            Send a test delivery
          </button>
          <button type="button" class="secondary" disabled={action.busy} onClick={rotate}>
            Rotate the signing secret
          </button>
          <button type="button" class="danger" disabled={action.busy} onClick={remove}>
            Delete
          </button>
        </div>
      )}
      {action.problem && <ErrorPanel problem={action.problem} />}
      {tested && (
        <p class="panel" role="status">
          Test delivery <code>{tested.deliveryId}</code>: {tested.status}
          {tested.lastStatusCode !== null && `, HTTP ${tested.lastStatusCode}`}
          {tested.lastError && `, ${tested.lastError}`}. Its outcome appears in the log below.
        </p>
      )}
      {secret && (
        <SecretOnce label="New signing secret" secret={secret} onDismiss={() => setSecret(null)} />
      )}
      {canWrite && <IntegrationEditor integration={integration} onSaved={onChanged} />}
    </>
  );
}

function DeliveryTable({ rows }: { rows: readonly Delivery[] }) {
  return (
    <div class="table-scroll">
      <table class="data">
        <caption class="visually-hidden">Deliveries</caption>
        <thead>
          <tr>
            <th scope="col">Event</th>
            <th scope="col">Status</th>
            <th scope="col">Attempts</th>
            <th scope="col">Last HTTP status</th>
            <th scope="col">Last error</th>
            <th scope="col">Created</th>
            <th scope="col">Finished</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.deliveryId}>
              <td>{row.eventType}</td>
              <td>{row.status}</td>
              <td>{row.attemptCount}</td>
              <td>{row.lastStatusCode ?? 'none'}</td>
              <td class="wrap">{row.lastError ?? ''}</td>
              <td>{dateTime(row.createdAtUtc)}</td>
              <td>{dateTime(row.finishedAtUtc)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
