import { useState } from 'preact/hooks';
import { ok } from '../../api/client';
import { SecretOnce } from '../../components/SecretOnce';
import { Empty, ErrorPanel, Loading } from '../../components/status';
import { allows, useApp } from '../../context';
import { dateTime } from '../../format';
import { Link } from '../../router';
import { useAction } from '../../use-action';
import { useLoad } from '../../use-load';

/**
 * Outbound webhook integrations: the list (members and above) and, for admins on a plan with
 * integrations, a new webhook (its signing secret shown once). Each row opens the integration
 * with its delivery log and test button.
 */
type Created = { name: string; secret: string };

export default function Integrations() {
  const { principal } = useApp();
  const canWrite = allows(principal, { feature: 'integrations', roles: ['admin'] });
  const result = useLoad((api) => ok(api.client.GET('/api/v1/integrations')), 'integrations');
  const [created, setCreated] = useState<Created | null>(null);
  return (
    <section aria-labelledby="screen-title">
      <h1 id="screen-title">Integrations</h1>
      {canWrite && (
        <NewWebhook
          onCreated={(next) => {
            setCreated(next);
            result.reload();
          }}
        />
      )}
      {created && (
        <SecretOnce
          label={`Signing secret of ${created.name}`}
          secret={created.secret}
          onDismiss={() => setCreated(null)}
        />
      )}
      {result.state === 'loading' && <Loading />}
      {result.state === 'error' && <ErrorPanel problem={result.problem} onRetry={result.reload} />}
      {result.state === 'ok' && result.data.items.length === 0 && (
        <Empty>No integrations yet.</Empty>
      )}
      {result.state === 'ok' && result.data.items.length > 0 && (
        <div class="table-scroll">
          <table class="data">
            <caption class="visually-hidden">Integrations</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Kind</th>
                <th scope="col">URL</th>
                <th scope="col">Status</th>
                <th scope="col">Last success</th>
                <th scope="col">Last failure</th>
              </tr>
            </thead>
            <tbody>
              {result.data.items.map((item) => (
                <tr key={item.integrationId}>
                  <td>
                    <Link href={`/integrations/${encodeURIComponent(item.integrationId)}`}>
                      {item.name}
                    </Link>
                  </td>
                  <td>{item.kind}</td>
                  <td class="wrap">{item.url}</td>
                  <td>
                    {item.status}
                    {item.disabledReason && ` (${item.disabledReason})`}
                  </td>
                  <td>{dateTime(item.lastSuccessAtUtc)}</td>
                  <td>{dateTime(item.lastFailureAtUtc)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function NewWebhook({ onCreated }: { onCreated: (created: Created) => void }) {
  const { api } = useApp();
  const [name, setName] = useState('');
  const [url, setUrl] = useState('');
  const action = useAction();
  const submit = async (event: Event) => {
    event.preventDefault();
    const made = await action.run(() =>
      ok(api.client.POST('/api/v1/integrations/webhooks', { body: { name, url } })),
    );
    if (!made) return;
    setName('');
    setUrl('');
    onCreated({ name: made.name, secret: made.secret });
  };
  return (
    <form class="panel form" aria-label="New webhook" onSubmit={submit}>
      <h2>New webhook</h2>
      <label for="webhook-name">
        Name
        <input
          id="webhook-name"
          value={name}
          required
          onInput={(e) => setName(e.currentTarget.value)}
        />
      </label>
      <label for="webhook-url">
        URL (public https)
        <input
          id="webhook-url"
          type="url"
          value={url}
          required
          onInput={(e) => setUrl(e.currentTarget.value)}
        />
      </label>
      {action.problem && <ErrorPanel problem={action.problem} />}
      <button type="submit" disabled={action.busy}>
        Create webhook
      </button>
    </form>
  );
}
