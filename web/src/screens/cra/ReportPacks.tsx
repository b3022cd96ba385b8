import { useEffect, useState } from 'preact/hooks';
import { ok } from '../../api/client';
import { filenameOf, saveBlob } from '../../api/download';
import { type ApiProblem, asProblem } from '../../api/problem';
import type { Ok } from '../../api/types';
import { Empty, ErrorPanel, Loading } from '../../components/status';
import { allows, useApp } from '../../context';
import { dateTime } from '../../format';
import { SimpleTable } from './parts';

/**
 * A product's report packs (docs/cra.md#report-packs): request one (202, a job generates it),
 * watch it until the service says ready or failed, download any of the formats it lists. The
 * document needs the bearer token, so a download is fetched and handed over as a file.
 */
type Pack = Ok<'/api/v1/cra/reports'>['items'][number];

const POLL_MS = 1000;
const WRITERS = ['member', 'admin', 'owner'] as const;
const pending = (pack: Pack) => pack.state === 'queued' || pack.state === 'generating';

export function ReportPacks({ productId }: { productId: string }) {
  const { api, principal } = useApp();
  const [packs, setPacks] = useState<Pack[] | null>(null);
  const [problem, setProblem] = useState<ApiProblem | null>(null);
  const [busy, setBusy] = useState(false);
  const [round, setRound] = useState(0);

  // Loads the list; while a pack is queued or generating, loads it again a second later.
  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const load = () =>
      ok(api.client.GET('/api/v1/cra/reports', { params: { query: { productId, take: 10 } } }))
        .then((page) => {
          if (!live) return;
          setPacks(page.items);
          if (page.items.some(pending)) timer = setTimeout(load, POLL_MS);
        })
        .catch((error: unknown) => live && setProblem(asProblem(error)));
    load();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [api, productId, round]);

  const request = async () => {
    setBusy(true);
    setProblem(null);
    try {
      await ok(api.client.POST('/api/v1/cra/reports', { body: { productId } }));
      setRound((r) => r + 1);
    } catch (error) {
      setProblem(asProblem(error));
    } finally {
      setBusy(false);
    }
  };

  const download = async (pack: Pack, format: string) => {
    setProblem(null);
    try {
      const answer = await api.client.GET('/api/v1/cra/reports/{packId}', {
        params: { path: { packId: pack.packId }, query: { format } },
        parseAs: 'blob',
      });
      const blob = await ok(Promise.resolve(answer));
      const fallback = `cra-report-${pack.packId}.${format}`;
      saveBlob(blob, filenameOf(answer.response.headers.get('content-disposition'), fallback));
    } catch (error) {
      setProblem(asProblem(error));
    }
  };

  const latest = packs?.[0];
  return (
    <section class="panel" aria-labelledby="report-packs">
      <h2 id="report-packs">Report packs</h2>
      {allows(principal, { feature: 'cra', roles: WRITERS }) && (
        <button type="button" disabled={busy} onClick={request}>
          Request a report pack
        </button>
      )}
      <p role="status" aria-live="polite">
        {latest ? `Latest pack: ${latest.state}` : ''}
        {latest?.state === 'failed' && latest.error ? ` (${latest.error})` : ''}
      </p>
      {problem && <ErrorPanel problem={problem} />}
      {packs === null && !problem && <Loading label="Loading the report packs" />}
      {packs?.length === 0 && <Empty>No report pack has been requested for this product.</Empty>}
      {packs && packs.length > 0 && (
        <SimpleTable
          label="Report packs"
          rows={packs}
          rowKey={(row) => row.packId}
          columns={[
            { header: 'Requested', render: (row) => dateTime(row.createdAtUtc) },
            { header: 'State', render: (row) => row.state },
            { header: 'Finished', render: (row) => dateTime(row.finishedAtUtc) },
            {
              header: 'Download',
              render: (row) =>
                row.state !== 'ready' ? (
                  <span class="muted">not ready</span>
                ) : (
                  <span class="actions">
                    {row.formats.map((format) => (
                      <button
                        key={format}
                        type="button"
                        class="secondary"
                        aria-label={`Download ${format} (pack of ${dateTime(row.createdAtUtc)})`}
                        onClick={() => download(row, format)}
                      >
                        {format}
                      </button>
                    ))}
                  </span>
                ),
            },
          ]}
        />
      )}
    </section>
  );
}
