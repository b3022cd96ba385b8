import { useState } from 'preact/hooks';
import { ok } from '../../api/client';
import type { Ok } from '../../api/types';
import { ErrorPanel } from '../../components/status';
import { useApp } from '../../context';
import { useAction } from '../../use-action';

/** Rename, retarget, disable or re-enable (PATCH sends only what changed; the API checks it). */
type Integration = Ok<'/api/v1/integrations/{integrationId}'>;

export function IntegrationEditor({
  integration,
  onSaved,
}: {
  integration: Integration;
  onSaved: () => void;
}) {
  const { api } = useApp();
  const [name, setName] = useState(integration.name);
  const [url, setUrl] = useState(integration.url);
  const [enabled, setEnabled] = useState(integration.status === 'active');
  const action = useAction();
  const submit = async (event: Event) => {
    event.preventDefault();
    const body = {
      ...(name !== integration.name ? { name } : {}),
      ...(url !== integration.url ? { url } : {}),
      ...(enabled !== (integration.status === 'active') ? { enabled } : {}),
    };
    const saved = await action.run(() =>
      ok(
        api.client.PATCH('/api/v1/integrations/{integrationId}', {
          params: { path: { integrationId: integration.integrationId } },
          body,
        }),
      ),
    );
    if (saved) onSaved();
  };
  return (
    <form class="panel form" aria-label="Edit integration" onSubmit={submit}>
      <h2>Edit</h2>
      <label for="integration-name">
        Name
        <input id="integration-name" value={name} onInput={(e) => setName(e.currentTarget.value)} />
      </label>
      <label for="integration-url">
        URL
        <input
          id="integration-url"
          type="url"
          value={url}
          onInput={(e) => setUrl(e.currentTarget.value)}
        />
      </label>
      <label for="integration-enabled" class="check">
        <input
          id="integration-enabled"
          type="checkbox"
          checked={enabled}
          onChange={(e) => setEnabled(e.currentTarget.checked)}
        />
        Enabled
      </label>
      {action.problem && <ErrorPanel problem={action.problem} />}
      <button type="submit" disabled={action.busy}>
        Save changes
      </button>
    </form>
  );
}
