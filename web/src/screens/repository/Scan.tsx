import { useEffect, useState } from 'preact/hooks';
import { ok } from '../../api/client';
import { inProgress, pollUntil } from '../../api/polling';
import { type ApiProblem, asProblem } from '../../api/problem';
import type { Ok } from '../../api/types';
import { Empty, ErrorPanel, Loading } from '../../components/status';
import { allows, type Role, useApp } from '../../context';
import { count, dateTime } from '../../format';

/**
 * The repository's latest scan and its log. While the scan is queued or running the panel reads
 * the scan and its log again every second (GET /scans/{id}, GET /scans/{id}/logs) and stops once
 * it has finished. "Scan now" (members and up) queues a scan and follows it the same way.
 */
type Scan = Ok<'/api/v1/scans/{scanId}'>;
type LogLine = Ok<'/api/v1/scans/{scanId}/logs'>['items'][number];

type View =
  | { state: 'loading' }
  | { state: 'none' }
  | { state: 'ok'; scan: Scan; logs: readonly LogLine[] }
  | { state: 'error'; problem: ApiProblem };

const SCAN_ROLES: readonly Role[] = ['member'];
const LOG_WINDOW = 200;

function useFollowScan(repositoryId: string, round: number, onFinished: () => void): View {
  const { api } = useApp();
  const [view, setView] = useState<View>({ state: 'loading' });
  useEffect(() => {
    const controller = new AbortController();
    const follow = async () => {
      const latest = await ok(
        api.client.GET('/api/v1/scans', { params: { query: { repositoryId, take: 1 } } }),
      );
      const first = latest.items[0];
      if (!first) return setView({ state: 'none' });
      const wasRunning = inProgress(first.state);
      const read = async () => {
        const path = { scanId: first.scanId };
        const [scan, logs] = await Promise.all([
          ok(api.client.GET('/api/v1/scans/{scanId}', { params: { path } })),
          ok(
            api.client.GET('/api/v1/scans/{scanId}/logs', {
              params: { path, query: { take: LOG_WINDOW } },
            }),
          ),
        ]);
        return { scan, logs: logs.items };
      };
      const last = await pollUntil(
        read,
        (value) => !inProgress(value.scan.state),
        (value) => setView({ state: 'ok', ...value }),
        { signal: controller.signal, intervalMs: 1000 },
      );
      if (wasRunning && last && !inProgress(last.scan.state) && !controller.signal.aborted)
        onFinished();
    };
    follow().catch((error: unknown) => {
      if (!controller.signal.aborted) setView({ state: 'error', problem: asProblem(error) });
    });
    return () => controller.abort();
  }, [api, repositoryId, round]);
  return view;
}

export function ScanPanel({
  repositoryId,
  onFinished,
}: {
  repositoryId: string;
  onFinished: () => void;
}) {
  const { api, principal } = useApp();
  const [round, setRound] = useState(0);
  const [trigger, setTrigger] = useState<{ busy: boolean; problem: ApiProblem | null }>({
    busy: false,
    problem: null,
  });
  const view = useFollowScan(repositoryId, round, onFinished);
  const running = view.state === 'ok' && inProgress(view.scan.state);
  const scanNow = async () => {
    setTrigger({ busy: true, problem: null });
    try {
      await ok(
        api.client.POST('/api/v1/repositories/{repositoryId}/scan', {
          params: { path: { repositoryId } },
        }),
      );
      setTrigger({ busy: false, problem: null });
      setRound((r) => r + 1);
    } catch (error) {
      setTrigger({ busy: false, problem: asProblem(error) });
    }
  };
  return (
    <div class="panel scan-panel">
      <h2>Latest scan</h2>
      {allows(principal, { roles: SCAN_ROLES }) && (
        <p>
          <button type="button" onClick={scanNow} disabled={trigger.busy || running}>
            Scan now
          </button>
          {running && <span class="muted"> A scan is in progress.</span>}
        </p>
      )}
      {trigger.problem && <ErrorPanel problem={trigger.problem} />}
      {view.state === 'loading' && <Loading label="Loading the latest scan" />}
      {view.state === 'error' && (
        <ErrorPanel problem={view.problem} onRetry={() => setRound((r) => r + 1)} />
      )}
      {view.state === 'none' && <Empty>Not scanned yet.</Empty>}
      {view.state === 'ok' && <ScanBody scan={view.scan} logs={view.logs} />}
    </div>
  );
}

function ScanBody({ scan, logs }: { scan: Scan; logs: readonly LogLine[] }) {
  const ecosystems = Object.entries(scan.countsByEcosystem);
  return (
    <>
      <p role="status" aria-live="polite">
        Scan <strong class={`state state-${scan.state}`}>{scan.state}</strong>
        {inProgress(scan.state) ? ' (following live)' : ''}
      </p>
      <dl class="fact-rows">
        <div>
          <dt>Trigger</dt>
          <dd>{scan.trigger}</dd>
        </div>
        <div>
          <dt>Queued</dt>
          <dd>{dateTime(scan.queuedAtUtc)}</dd>
        </div>
        <div>
          <dt>Finished</dt>
          <dd>{scan.finishedAtUtc === null ? 'not yet' : dateTime(scan.finishedAtUtc)}</dd>
        </div>
        <div>
          <dt>Commit</dt>
          <dd>{scan.commitSha ? <code>{scan.commitSha.slice(0, 12)}</code> : 'unknown'}</dd>
        </div>
        <div>
          <dt>Found</dt>
          <dd>
            {count(scan.dependencyCount)} dependencies in {count(scan.fileCount)} files
            {ecosystems.length > 0 &&
              ` (${ecosystems.map(([name, n]) => `${name} ${count(n)}`).join(', ')})`}
          </dd>
        </div>
        {scan.error && (
          <div>
            <dt>Error</dt>
            <dd class="warn">{scan.error}</dd>
          </div>
        )}
      </dl>
      <h3>Log, newest first</h3>
      {logs.length === 0 ? (
        <Empty>No log lines yet.</Empty>
      ) : (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take focus
        <section class="log" aria-label="Scan log" tabIndex={0}>
          <ol>
            {logs.map((line) => (
              <li key={line.scanLogId} class={`log-${line.level}`}>
                <span class="muted">{line.loggedAtUtc.slice(11, 19)}</span> {line.level}{' '}
                <span class="tag">{line.step}</span> {line.message}
              </li>
            ))}
          </ol>
        </section>
      )}
    </>
  );
}
