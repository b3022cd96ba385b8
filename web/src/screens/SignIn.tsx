import { useState } from 'preact/hooks';
import type { ApiProblem } from '../api/problem';
import { ErrorPanel } from '../components/status';

/**
 * Sign-in with an API token. The token goes to sessionStorage only (api/session.ts), and the
 * form never submits anywhere: no URL or cookie ever holds it.
 */
export function SignIn({
  problem,
  onSignIn,
}: {
  problem: ApiProblem | null;
  onSignIn: (token: string) => Promise<void>;
}) {
  const [token, setToken] = useState('');
  const onSubmit = (event: Event) => {
    event.preventDefault();
    if (token.trim() !== '') void onSignIn(token.trim());
  };
  return (
    <main id="main" class="sign-in">
      <h1>Sign in to Driftwatch</h1>
      <p>
        Paste an API token of your tenant. It is kept in this browser tab only and is gone when the
        tab closes.
      </p>
      {problem && <ErrorPanel problem={problem} />}
      <form onSubmit={onSubmit} method="post" action="#">
        <label for="token">API token</label>
        <input
          id="token"
          name="token"
          type="password"
          autocomplete="off"
          spellcheck={false}
          required
          value={token}
          onInput={(event) => setToken(event.currentTarget.value)}
        />
        <button type="submit">Sign in</button>
      </form>
    </main>
  );
}
