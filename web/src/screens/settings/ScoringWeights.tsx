import { useEffect, useState } from 'preact/hooks';
import { ok } from '../../api/client';
import { weightsSum } from '../../api/weights';
import { ErrorPanel, Loading } from '../../components/status';
import { useApp } from '../../context';
import { useAction } from '../../use-action';
import { useLoad } from '../../use-load';

/**
 * The health scoring weights: one field per signal the API returns, the sum shown as typed.
 * Saving sends the numbers as typed; the API refuses a sum other than 100 with a 400, shown here.
 */
export function ScoringWeights() {
  const { api } = useApp();
  const result = useLoad(
    (client) => ok(client.client.GET('/api/v1/tenants/current/scoring-weights')),
    'weights',
  );
  const [texts, setTexts] = useState<Record<string, string>>({});
  const [saved, setSaved] = useState(false);
  const action = useAction();
  useEffect(() => {
    if (result.state !== 'ok') return;
    setTexts(Object.fromEntries(Object.entries(result.data).map(([k, v]) => [k, String(v)])));
  }, [result.state]);
  const live = weightsSum(texts);

  const submit = async (event: Event) => {
    event.preventDefault();
    setSaved(false);
    if (live.sum === null) return;
    const answer = await action.run(() =>
      ok(api.client.PATCH('/api/v1/tenants/current/scoring-weights', { body: live.values })),
    );
    if (!answer) return;
    setTexts(Object.fromEntries(Object.entries(answer).map(([k, v]) => [k, String(v)])));
    setSaved(true);
  };

  return (
    <section id="scoring-weights" aria-labelledby="weights-title" class="settings-section">
      <h2 id="weights-title">Scoring weights</h2>
      <p class="muted">
        Non-negative weights of the health signals; the service wants them to sum to 100.
      </p>
      {result.state === 'loading' && <Loading />}
      {result.state === 'error' && <ErrorPanel problem={result.problem} onRetry={result.reload} />}
      {result.state === 'ok' && (
        <form class="form weights" aria-label="Scoring weights" onSubmit={submit}>
          <div class="weight-grid">
            {Object.keys(texts).map((key) => (
              <label key={key} for={`weight-${key}`}>
                {key}
                <input
                  id={`weight-${key}`}
                  inputMode="decimal"
                  value={texts[key]}
                  aria-invalid={live.invalid.includes(key) ? 'true' : undefined}
                  onInput={(e) => {
                    setSaved(false);
                    setTexts({ ...texts, [key]: e.currentTarget.value });
                  }}
                />
              </label>
            ))}
          </div>
          <p aria-live="polite" data-testid="weights-sum">
            Sum: <strong>{live.sum === null ? 'not a number' : live.sum}</strong>
            {live.invalid.length > 0 && ` (check ${live.invalid.join(', ')})`}
          </p>
          {action.problem && <ErrorPanel problem={action.problem} />}
          {saved && <p role="status">Saved.</p>}
          <button type="submit" disabled={action.busy || live.sum === null}>
            Save weights
          </button>
        </form>
      )}
    </section>
  );
}
