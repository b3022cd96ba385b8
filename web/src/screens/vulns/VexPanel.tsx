import { useEffect, useState } from 'preact/hooks';
import { ok } from '../../api/client';
import { type ApiProblem, asProblem } from '../../api/problem';
import type { paths } from '../../api/schema';
import { localInputToIso } from '../../api/triage';
import { ErrorPanel } from '../../components/status';
import { useApp } from '../../context';

/** VEX in (an OpenVEX or CycloneDX file becomes triage rules) and out (a download). */
type ImportSummary =
  paths['/api/v1/triage-rules/vex/import']['post']['responses'][200]['content']['application/json'];

const FORMATS = ['openvex', 'cyclonedx'] as const;

export function VexPanel({
  canImport,
  onImported,
}: {
  canImport: boolean;
  onImported: () => void;
}) {
  return (
    <section aria-labelledby="vex-title">
      <h2 id="vex-title">VEX documents</h2>
      {canImport && <VexImport onImported={onImported} />}
      <VexExport />
    </section>
  );
}

function VexImport({ onImported }: { onImported: () => void }) {
  const { api } = useApp();
  const [file, setFile] = useState<File | null>(null);
  const [expiresLocal, setExpiresLocal] = useState('');
  const [summary, setSummary] = useState<ImportSummary | null>(null);
  const [problem, setProblem] = useState<ApiProblem | null>(null);

  const onSubmit = async (event: Event) => {
    event.preventDefault();
    if (!file) return;
    setProblem(null);
    setSummary(null);
    try {
      const parsed: unknown = JSON.parse(await file.text());
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
        throw new Error('The file is not a JSON object');
      }
      const expiry = localInputToIso(expiresLocal);
      const result = await ok(
        api.client.POST('/api/v1/triage-rules/vex/import', {
          params: { query: expiry ? { acceptedRiskExpiresAtUtc: expiry } : {} },
          body: Object.fromEntries(Object.entries(parsed)),
        }),
      );
      setSummary(result);
      onImported();
    } catch (error) {
      setProblem(
        error instanceof SyntaxError
          ? {
              status: 0,
              title: 'Not a JSON file',
              detail: error.message,
              correlationId: null,
              errors: null,
            }
          : asProblem(error),
      );
    }
  };

  return (
    <form class="stack" aria-label="Import VEX" onSubmit={onSubmit}>
      <label for="vex-file">
        OpenVEX or CycloneDX VEX file (JSON)
        <input
          id="vex-file"
          type="file"
          accept=".json,application/json"
          onChange={(event) => setFile(event.currentTarget.files?.[0] ?? null)}
        />
      </label>
      <label for="vex-expiry">
        Accepted risks end (optional; without it accepted statements are skipped)
        <input
          id="vex-expiry"
          type="datetime-local"
          value={expiresLocal}
          onInput={(event) => setExpiresLocal(event.currentTarget.value)}
        />
      </label>
      <div>
        <button type="submit" disabled={!file}>
          Import
        </button>
      </div>
      {summary && <SummaryView summary={summary} />}
      {problem && <ErrorPanel problem={problem} />}
    </form>
  );
}

function VexExport() {
  const { api } = useApp();
  const [format, setFormat] = useState<(typeof FORMATS)[number]>('openvex');
  const [href, setHref] = useState<string | null>(null);
  const [problem, setProblem] = useState<ApiProblem | null>(null);
  useEffect(
    () => () => {
      if (href) URL.revokeObjectURL(href);
    },
    [href],
  );

  const prepare = async () => {
    setProblem(null);
    try {
      const text = await ok(
        api.client.GET('/api/v1/triage-rules/vex/export', {
          params: { query: { format } },
          parseAs: 'text',
        }),
      );
      setHref(URL.createObjectURL(new Blob([text], { type: 'application/json' })));
    } catch (error) {
      setProblem(asProblem(error));
    }
  };

  return (
    <div class="stack">
      <label for="vex-format">
        Export format
        <select
          id="vex-format"
          value={format}
          onChange={(event) => {
            const value = FORMATS.find((known) => known === event.currentTarget.value);
            if (value) setFormat(value);
            setHref(null);
          }}
        >
          {FORMATS.map((known) => (
            <option key={known} value={known}>
              {known}
            </option>
          ))}
        </select>
      </label>
      <div>
        <button type="button" onClick={prepare}>
          Prepare export
        </button>{' '}
        {href && (
          <a href={href} download={`driftwatch-vex-${format}.json`}>
            Download the {format} document
          </a>
        )}
      </div>
      {problem && <ErrorPanel problem={problem} />}
    </div>
  );
}

function SummaryView({ summary }: { summary: ImportSummary }) {
  return (
    <div role="status" class="notice">
      <p>
        {summary.format} {summary.specVersion}: {summary.statements} statements, {summary.created}{' '}
        created, {summary.updated} updated, {summary.unchanged} unchanged, {summary.skipped}{' '}
        skipped; {summary.exposuresSettled} exposures settled.
      </p>
      <ul>
        {summary.results
          .filter((result) => result.outcome === 'skipped')
          .map((result) => (
            <li key={result.statement}>
              Statement {result.statement} ({result.vulnerability ?? 'no id'}) skipped:{' '}
              {result.reason}
            </li>
          ))}
      </ul>
    </div>
  );
}
