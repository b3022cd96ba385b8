import { ok } from '../../api/client';
import { textParam } from '../../api/query-state';
import { ErrorPanel, Loading } from '../../components/status';
import { useApp } from '../../context';
import { count, dateTime } from '../../format';
import { useQueryState } from '../../router';
import { useAction } from '../../use-action';
import { useLoad } from '../../use-load';

/**
 * Data export: request one (202), follow its state and download the zip once completed. The API
 * has no list of exports, so the requested export's id is kept in the URL (`exportId`); the
 * download goes through the API client (the bearer token never enters a URL).
 */
export function DataExport() {
  const { search, setQuery } = useQueryState();
  const exportId = textParam(search, 'exportId');
  const { api } = useApp();
  const action = useAction();
  const request = async () => {
    const made = await action.run(() => ok(api.client.POST('/api/v1/tenants/current/data-export')));
    if (made) setQuery({ exportId: made.exportId });
  };
  return (
    <section id="data-export" aria-labelledby="export-title" class="settings-section">
      <h2 id="export-title">Data export</h2>
      <p class="muted">Every tenant table as NDJSON in a zip, from one consistent snapshot.</p>
      <button type="button" disabled={action.busy} onClick={request}>
        Request a data export
      </button>
      {action.problem && <ErrorPanel problem={action.problem} />}
      {exportId && <ExportState exportId={exportId} />}
    </section>
  );
}

function ExportState({ exportId }: { exportId: string }) {
  const { api } = useApp();
  const download = useAction();
  const result = useLoad(
    (client) =>
      ok(
        client.client.GET('/api/v1/tenants/current/data-export/{exportId}', {
          params: { path: { exportId } },
        }),
      ),
    exportId,
  );
  const save = async () => {
    const blob = await download.run(() =>
      ok(
        api.client.GET('/api/v1/tenants/current/data-export/{exportId}/download', {
          params: { path: { exportId } },
          parseAs: 'blob',
        }),
      ),
    );
    if (!blob) return;
    const link = document.createElement('a');
    link.href = URL.createObjectURL(blob);
    link.download = `driftwatch-export-${exportId}.zip`;
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
  };
  if (result.state === 'loading') return <Loading label="Loading the export" />;
  if (result.state === 'error') {
    return <ErrorPanel problem={result.problem} onRetry={result.reload} />;
  }
  const data = result.data;
  return (
    <div class="panel" data-testid="export-state">
      <p>
        Export <code>{data.exportId}</code>: <strong>{data.state}</strong>, requested{' '}
        {dateTime(data.createdAtUtc)}, expires {dateTime(data.expiresAtUtc)}
        {data.sizeBytes !== null && `, ${count(data.sizeBytes)} bytes`}
        {data.error && `, ${data.error}`}
      </p>
      {data.sha256 && (
        <p>
          SHA-256 <code class="wrap">{data.sha256}</code>
        </p>
      )}
      <div class="row">
        <button type="button" class="secondary" onClick={result.reload}>
          Refresh
        </button>
        {data.downloadUrl && (
          <button type="button" disabled={download.busy} onClick={save}>
            Download the zip
          </button>
        )}
      </div>
      {download.problem && <ErrorPanel problem={download.problem} />}
    </div>
  );
}
