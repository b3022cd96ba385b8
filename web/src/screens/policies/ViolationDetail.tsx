import { useEffect, useState } from 'preact/hooks';
import { ok } from '../../api/client';
import { type ApiProblem, asProblem } from '../../api/problem';
import { EXCEPTION_SCOPES, localInputToIso, violationMoves } from '../../api/triage';
import type { Ok } from '../../api/types';
import { MoveSelect } from '../../components/MoveSelect';
import { ErrorPanel, Loading } from '../../components/status';
import { allows, useApp } from '../../context';
import { dateTime } from '../../format';
import { Link } from '../../router';
import type { ScreenProps } from '../../routes';
import { useLoad } from '../../use-load';
import { POLICY_ADMIN } from './Policies';

/** One violation: its facts, triage (the allowed moves only) and granting an exception. */
type Violation = Ok<'/api/v1/policy-violations/{violationId}'>;

export default function ViolationDetail({ params }: ScreenProps) {
  const violationId = params.violationId ?? '';
  const result = useLoad(
    (api) =>
      ok(
        api.client.GET('/api/v1/policy-violations/{violationId}', {
          params: { path: { violationId } },
        }),
      ),
    violationId,
  );
  const loaded = result.state === 'ok' ? result.data : null;
  const [current, setCurrent] = useState<Violation | null>(null);
  useEffect(() => setCurrent(loaded), [loaded]);
  const { principal } = useApp();
  return (
    <section aria-labelledby="screen-title">
      <h1 id="screen-title">
        Violation{current ? `: ${current.packageName}@${current.version ?? 'unpinned'}` : ''}
      </h1>
      <p>
        <Link href="/violations">All violations</Link>
      </p>
      {result.state === 'loading' && <Loading />}
      {result.state === 'error' && <ErrorPanel problem={result.problem} onRetry={result.reload} />}
      {current && (
        <>
          <dl class="facts">
            <dt>Policy</dt>
            <dd>
              <Link href={`/policies/${encodeURIComponent(current.policyId)}`}>
                {current.policyName}
              </Link>{' '}
              ({current.severity}, {current.action}
              {current.blocking ? ', blocking' : ''})
            </dd>
            <dt>Package</dt>
            <dd>
              <code>{current.purl}</code> {current.version ?? ''}
              {current.file && ` · ${current.file}${current.line ? `:${current.line}` : ''}`}
            </dd>
            <dt>Status</dt>
            <dd>
              <strong>{current.status}</strong>
              {current.reason && ` · “${current.reason}”`} · detected{' '}
              {dateTime(current.detectedAtUtc)}
            </dd>
          </dl>
          <h2>Facts</h2>
          <pre class="code-block">{JSON.stringify(current.facts, null, 2)}</pre>
          <h2>Triage</h2>
          {allows(principal, { roles: ['member', 'admin', 'owner'] }) && (
            <ViolationTriage key={current.status} violation={current} onDone={setCurrent} />
          )}
          {allows(principal, POLICY_ADMIN) && violationMoves(current.status).length > 0 && (
            <GrantException violation={current} onDone={result.reload} />
          )}
        </>
      )}
    </section>
  );
}

function ViolationTriage({
  violation,
  onDone,
}: {
  violation: Violation;
  onDone: (next: Violation) => void;
}) {
  const { api } = useApp();
  const moves = violationMoves(violation.status);
  const [status, setStatus] = useState(moves.find((m) => m !== violation.status) ?? '');
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<ApiProblem | null>(null);
  if (moves.length === 0) {
    return <p>A {violation.status} violation is not triaged by hand.</p>;
  }
  const onSubmit = async (event: Event) => {
    event.preventDefault();
    setProblem(null);
    try {
      onDone(
        await ok(
          api.client.PATCH('/api/v1/policy-violations/{violationId}', {
            params: { path: { violationId: violation.violationId } },
            body: { status, reason: reason.trim() || null },
          }),
        ),
      );
    } catch (error) {
      setProblem(asProblem(error));
    }
  };
  return (
    <form class="stack" aria-label="Triage the violation" onSubmit={onSubmit}>
      <MoveSelect
        id="violation-status"
        current={violation.status}
        moves={moves}
        value={status}
        onChange={setStatus}
        keepLabel="keep, update the reason"
      />
      <label for="violation-reason">
        Reason{status === 'dismissed' ? ' (required)' : ''}
        <textarea
          id="violation-reason"
          rows={2}
          value={reason}
          onInput={(event) => setReason(event.currentTarget.value)}
        />
      </label>
      <div>
        <button type="submit">Save triage</button>
      </div>
      {problem && <ErrorPanel problem={problem} />}
    </form>
  );
}

function GrantException({ violation, onDone }: { violation: Violation; onDone: () => void }) {
  const { api } = useApp();
  const [reason, setReason] = useState('');
  const [expiresLocal, setExpiresLocal] = useState('');
  const [scope, setScope] = useState<string>('violation');
  const [problem, setProblem] = useState<ApiProblem | null>(null);
  const onSubmit = async (event: Event) => {
    event.preventDefault();
    setProblem(null);
    try {
      await ok(
        api.client.POST('/api/v1/policy-violations/{violationId}/exception', {
          params: { path: { violationId: violation.violationId } },
          body: { reason, expiresAtUtc: localInputToIso(expiresLocal) ?? '', scope },
        }),
      );
      onDone();
    } catch (error) {
      setProblem(asProblem(error));
    }
  };
  return (
    <form class="stack" aria-labelledby="exception-title" onSubmit={onSubmit}>
      <h2 id="exception-title">Grant an exception</h2>
      <label for="exception-reason">
        Justification (required)
        <textarea
          id="exception-reason"
          rows={2}
          value={reason}
          onInput={(event) => setReason(event.currentTarget.value)}
        />
      </label>
      <label for="exception-expiry">
        Ends (required)
        <input
          id="exception-expiry"
          type="datetime-local"
          value={expiresLocal}
          onInput={(event) => setExpiresLocal(event.currentTarget.value)}
        />
      </label>
      <label for="exception-scope">
        Covers
        <select
          id="exception-scope"
          value={scope}
          onChange={(event) => setScope(event.currentTarget.value)}
        >
          {EXCEPTION_SCOPES.map((value) => (
            <option key={value} value={value}>
              {value}
            </option>
          ))}
        </select>
      </label>
      <div>
        <button type="submit">Grant exception</button>
      </div>
      {problem && <ErrorPanel problem={problem} />}
    </form>
  );
}
