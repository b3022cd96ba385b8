import { useEffect, useState } from 'preact/hooks';
import { ok } from '../../api/client';
import { inProgress, pollUntil } from '../../api/polling';
import { type ApiProblem, asProblem } from '../../api/problem';
import type { Ok } from '../../api/types';
import { Empty, ErrorPanel, Loading } from '../../components/status';
import { allows, type Role, useApp } from '../../context';
import { count, dateTime } from '../../format';
import { useLoad } from '../../use-load';
import { saveAttachment } from './save';

/**
 * SBOM export (plan feature sbom_export): request one in a format the route accepts, follow it
 * (GET /sbom-exports/{id} every second while queued or running), download it once completed;
 * the recent exports stay listed. CBOM (feature quantum): the quantum CBOM route as a download.
 */
type SbomExport = Ok<'/api/v1/sbom-exports/{exportId}'>;

const FORMATS = ['cyclonedx-1.6', 'spdx-2.3'] as const;
const EXPORT_ROLES: readonly Role[] = ['member'];

export function ExportsTab({ repositoryId }: { repositoryId: string }) {
  const { principal } = useApp();
  return (
    <section aria-labelledby="section-title" class="section">
      <h2 id="section-title">SBOM and CBOM</h2>
      <div class="grid two">
        {principal.features.has('sbom_export') ? (
          <Sbom repositoryId={repositoryId} />
        ) : (
          <p class="panel">SBOM export is not part of this plan.</p>
        )}
        {principal.features.has('quantum') && <Cbom repositoryId={repositoryId} />}
      </div>
    </section>
  );
}

function Download({ item }: { item: SbomExport }) {
  const { api } = useApp();
  const [problem, setProblem] = useState<ApiProblem | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const download = () =>
    saveAttachment(
      api.client.GET('/api/v1/sbom-exports/{exportId}/download', {
        params: { path: { exportId: item.exportId } },
        parseAs: 'blob',
      }),
      `sbom-${item.exportId}.json`,
    ).then(setSaved, (error: unknown) => setProblem(asProblem(error)));
  return (
    <>
      <button type="button" onClick={download}>
        Download {item.format}
      </button>
      {saved && <span class="muted"> saved as {saved}</span>}
      {problem && <ErrorPanel problem={problem} />}
    </>
  );
}

function Sbom({ repositoryId }: { repositoryId: string }) {
  const { api, principal } = useApp();
  const [format, setFormat] = useState<(typeof FORMATS)[number]>('cyclonedx-1.6');
  const [current, setCurrent] = useState<SbomExport | null>(null);
  const [problem, setProblem] = useState<ApiProblem | null>(null);
  const recent = useLoad(
    (api) =>
      ok(
        api.client.GET('/api/v1/repositories/{repositoryId}/sbom/exports', {
          params: { path: { repositoryId }, query: { take: 10 } },
        }),
      ),
    `${repositoryId}|${current?.state ?? ''}`,
  );
  const following = current?.exportId ?? null;
  useEffect(() => {
    if (following === null) return;
    const controller = new AbortController();
    pollUntil(
      () =>
        ok(
          api.client.GET('/api/v1/sbom-exports/{exportId}', {
            params: { path: { exportId: following } },
          }),
        ),
      (value) => !inProgress(value.state),
      setCurrent,
      { signal: controller.signal, intervalMs: 1000 },
    ).catch((error: unknown) => setProblem(asProblem(error)));
    return () => controller.abort();
  }, [api, following]);
  const request = async (event: Event) => {
    event.preventDefault();
    setProblem(null);
    try {
      const queued = await ok(
        api.client.POST('/api/v1/repositories/{repositoryId}/sbom/exports', {
          params: { path: { repositoryId } },
          body: { format },
        }),
      );
      setCurrent(queued);
    } catch (error) {
      setProblem(asProblem(error));
    }
  };
  return (
    <div class="panel">
      <h3>SBOM</h3>
      {allows(principal, { roles: EXPORT_ROLES }) && (
        <form class="filters" aria-label="Request an SBOM export" onSubmit={request}>
          <label for="sbom-format">
            Format
            <select
              id="sbom-format"
              value={format}
              onChange={(event) =>
                setFormat(FORMATS.find((f) => f === event.currentTarget.value) ?? 'cyclonedx-1.6')
              }
            >
              {FORMATS.map((f) => (
                <option key={f} value={f}>
                  {f}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" disabled={current !== null && inProgress(current.state)}>
            Request SBOM export
          </button>
        </form>
      )}
      {problem && <ErrorPanel problem={problem} />}
      {current && (
        <p role="status" aria-live="polite">
          Export {current.format}: <strong>{current.state}</strong>
          {current.componentCount !== null && ` (${count(current.componentCount)} components)`}
          {current.error && <span class="warn"> {current.error}</span>}
        </p>
      )}
      {current?.state === 'completed' && <Download item={current} />}
      <h4>Recent exports</h4>
      {recent.state === 'loading' && <Loading label="Loading the exports" />}
      {recent.state === 'error' && <ErrorPanel problem={recent.problem} onRetry={recent.reload} />}
      {recent.state === 'ok' &&
        (recent.data.items.length === 0 ? (
          <Empty>No exports yet.</Empty>
        ) : (
          <ul class="top">
            {recent.data.items.map((item) => (
              <li key={item.exportId}>
                <span>
                  {item.format} · {item.state} · {dateTime(item.createdAtUtc)}
                </span>
                {item.state === 'completed' && <Download item={item} />}
              </li>
            ))}
          </ul>
        ))}
    </div>
  );
}

function Cbom({ repositoryId }: { repositoryId: string }) {
  const { api } = useApp();
  const [problem, setProblem] = useState<ApiProblem | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const download = () => {
    setProblem(null);
    saveAttachment(
      api.client.GET('/api/v1/repositories/{repositoryId}/quantum/cbom', {
        params: { path: { repositoryId } },
        parseAs: 'blob',
      }),
      `cbom-${repositoryId}.cdx.json`,
    ).then(setSaved, (error: unknown) => setProblem(asProblem(error)));
  };
  return (
    <div class="panel">
      <h3>CBOM</h3>
      <p>The cryptography bill of materials (CycloneDX 1.6) of the quantum readiness scan.</p>
      <button type="button" onClick={download}>
        Download CBOM
      </button>
      {saved && (
        <span class="muted" role="status">
          {' '}
          saved as {saved}
        </span>
      )}
      {problem && <ErrorPanel problem={problem} />}
    </div>
  );
}
