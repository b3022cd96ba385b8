import { useState } from 'preact/hooks';
import { done, ok } from '../../api/client';
import type { Ok } from '../../api/types';
import { SecretOnce } from '../../components/SecretOnce';
import { Empty, ErrorPanel, Loading } from '../../components/status';
import { allows, ROLE_ORDER, useApp } from '../../context';
import { dateTime } from '../../format';
import { useAction } from '../../use-action';
import { useLoad } from '../../use-load';

/**
 * API tokens: the list (never a secret), a new token (its raw secret shown once, then only its
 * prefix), and revoking an active one. The signed-in token is marked; revoking it signs out.
 */
type Token = Ok<'/api/v1/api-tokens'>['items'][number];

export function Tokens() {
  const { api, principal } = useApp();
  const canCreate = allows(principal, { feature: 'api_tokens', roles: ['admin'] });
  const result = useLoad((client) => ok(client.client.GET('/api/v1/api-tokens')), 'tokens');
  const [created, setCreated] = useState<{ name: string; secret: string } | null>(null);
  const action = useAction();

  const revoke = async (token: Token) => {
    const self = token.apiTokenId === principal.tokenId;
    const question = self
      ? `Revoke ${token.name}? It is the token you are signed in with: you will be signed out.`
      : `Revoke ${token.name}? It stops working at once.`;
    if (!window.confirm(question)) return;
    const revoked = await action.run(() =>
      done(
        api.client.DELETE('/api/v1/api-tokens/{apiTokenId}', {
          params: { path: { apiTokenId: token.apiTokenId } },
        }),
      ).then(() => true),
    );
    if (revoked) result.reload();
  };

  return (
    <section id="api-tokens" aria-labelledby="tokens-title" class="settings-section">
      <h2 id="tokens-title">API tokens</h2>
      {canCreate && (
        <NewToken
          onCreated={(next) => {
            setCreated(next);
            result.reload();
          }}
        />
      )}
      {created && (
        <SecretOnce
          label={`Token ${created.name}`}
          secret={created.secret}
          onDismiss={() => setCreated(null)}
        />
      )}
      {action.problem && <ErrorPanel problem={action.problem} />}
      {result.state === 'loading' && <Loading />}
      {result.state === 'error' && <ErrorPanel problem={result.problem} onRetry={result.reload} />}
      {result.state === 'ok' && result.data.items.length === 0 && <Empty>No tokens.</Empty>}
      {result.state === 'ok' && result.data.items.length > 0 && (
        <div class="table-scroll">
          <table class="data">
            <caption class="visually-hidden">API tokens</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Prefix</th>
                <th scope="col">Roles</th>
                <th scope="col">Created</th>
                <th scope="col">Expires</th>
                <th scope="col">Last used</th>
                <th scope="col">State</th>
              </tr>
            </thead>
            <tbody>
              {result.data.items.map((token) => (
                <tr key={token.apiTokenId}>
                  <td>
                    {token.name}
                    {token.apiTokenId === principal.tokenId && ' (this session)'}
                  </td>
                  <td>
                    <code>{token.prefix}</code>
                  </td>
                  <td>
                    <code>{token.roleScopeJson}</code>
                  </td>
                  <td>{dateTime(token.createdAtUtc)}</td>
                  <td>{token.expiresAtUtc ? dateTime(token.expiresAtUtc) : 'never'}</td>
                  <td>{dateTime(token.lastUsedAtUtc)}</td>
                  <td>
                    {token.revokedAtUtc ? (
                      `revoked ${dateTime(token.revokedAtUtc)}`
                    ) : (
                      <button
                        type="button"
                        class="small danger"
                        disabled={action.busy}
                        aria-label={`Revoke ${token.name}`}
                        onClick={() => revoke(token)}
                      >
                        Revoke
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function NewToken({
  onCreated,
}: {
  onCreated: (created: { name: string; secret: string }) => void;
}) {
  const { api } = useApp();
  const [name, setName] = useState('');
  const [role, setRole] = useState('');
  const [expires, setExpires] = useState('');
  const action = useAction();
  const submit = async (event: Event) => {
    event.preventDefault();
    const body = {
      name,
      roleScopeJson: role === '' ? null : JSON.stringify({ roles: [role] }),
      // The end of the chosen day, UTC; the API refuses a past one.
      expiresAtUtc: expires === '' ? null : `${expires}T23:59:59.000Z`,
    };
    const made = await action.run(() => ok(api.client.POST('/api/v1/api-tokens', { body })));
    if (!made) return;
    setName('');
    onCreated({ name: made.name, secret: made.rawSecret });
  };
  return (
    <form class="panel form" aria-label="New API token" onSubmit={submit}>
      <h3>New token</h3>
      <label for="token-name">
        Name
        <input
          id="token-name"
          value={name}
          required
          onInput={(e) => setName(e.currentTarget.value)}
        />
      </label>
      <label for="token-role">
        Role
        <select id="token-role" value={role} onChange={(e) => setRole(e.currentTarget.value)}>
          <option value="">Same as mine</option>
          {ROLE_ORDER.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </select>
      </label>
      <label for="token-expires">
        Expires (UTC day, optional)
        <input
          id="token-expires"
          type="date"
          value={expires}
          onInput={(e) => setExpires(e.currentTarget.value)}
        />
      </label>
      {action.problem && <ErrorPanel problem={action.problem} />}
      <button type="submit" disabled={action.busy}>
        Create token
      </button>
    </form>
  );
}
