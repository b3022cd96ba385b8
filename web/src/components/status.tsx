import type { ComponentChildren } from 'preact';
import type { ApiProblem } from '../api/problem';
import { useApp, useWatch } from '../context';

/** A failed call: the problem's title, detail and correlation id (quote it to support). */
export function ErrorPanel({ problem, onRetry }: { problem: ApiProblem; onRetry?: () => void }) {
  return (
    <div class="panel error" role="alert">
      <h2>{problem.title}</h2>
      {problem.detail && <p>{problem.detail}</p>}
      {problem.errors && (
        <ul>
          {Object.entries(problem.errors).map(([field, messages]) => (
            <li key={field}>
              <code>{field}</code>: {messages.join('; ')}
            </li>
          ))}
        </ul>
      )}
      <p class="muted">
        {problem.status > 0 ? `HTTP ${problem.status}` : 'No response'}
        {problem.correlationId && (
          <>
            {' · correlation id '}
            <code>{problem.correlationId}</code>
          </>
        )}
      </p>
      {onRetry && (
        <button type="button" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}

export function Loading({ label = 'Loading' }: { label?: string }) {
  return (
    <p class="loading" role="status" aria-live="polite">
      {label}…
    </p>
  );
}

export function Empty({ children }: { children: ComponentChildren }) {
  return <p class="empty">{children}</p>;
}

/** Shown while a 429 is waited out (the data layer retries by itself). */
export function RateLimitNotice() {
  const { api } = useApp();
  const wait = useWatch(api.waiting);
  return (
    <div role="status" aria-live="polite" class={wait ? 'notice' : 'visually-hidden'}>
      {wait ? `Rate limited by the service: waiting ${wait.seconds} s, then retrying` : ''}
    </div>
  );
}
