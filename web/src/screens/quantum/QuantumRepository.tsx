import { useState } from 'preact/hooks';
import { ok } from '../../api/client';
import { filenameOf, saveBlob } from '../../api/download';
import { type ApiProblem, asProblem } from '../../api/problem';
import { ErrorPanel, Loading } from '../../components/status';
import { useApp } from '../../context';
import { Link } from '../../router';
import type { ScreenProps } from '../../routes';
import { useLoad } from '../../use-load';
import { Certificates } from './Certificates';
import { QuantumFindings } from './QuantumFindings';

/**
 * One repository's quantum inventory: findings (filters `status`, `severity`, `page` in the URL,
 * triage with the allowed moves), certificates (filters `classification`, `provenance`) and
 * its CycloneDX CBOM as a download.
 */
export default function QuantumRepository({ params }: ScreenProps) {
  const repositoryId = params.repositoryId ?? '';
  const result = useLoad(
    (api) =>
      ok(
        api.client.GET('/api/v1/repositories/{repositoryId}', {
          params: { path: { repositoryId } },
        }),
      ),
    `repository|${repositoryId}`,
  );
  return (
    <section aria-labelledby="screen-title">
      <h1 id="screen-title">
        {result.state === 'ok' ? `Quantum: ${result.data.fullName}` : 'Quantum: repository'}
      </h1>
      <p>
        <Link href="/quantum">Quantum readiness</Link>
      </p>
      {result.state === 'loading' && <Loading label="Loading the repository" />}
      {result.state === 'error' && <ErrorPanel problem={result.problem} onRetry={result.reload} />}
      {result.state === 'ok' && (
        <>
          <Cbom repositoryId={repositoryId} />
          <QuantumFindings repositoryId={repositoryId} />
          <Certificates repositoryId={repositoryId} />
        </>
      )}
    </section>
  );
}

/** The CBOM needs the bearer token: fetched, then handed over as a file. */
function Cbom({ repositoryId }: { repositoryId: string }) {
  const { api } = useApp();
  const [problem, setProblem] = useState<ApiProblem | null>(null);
  const download = async () => {
    setProblem(null);
    try {
      const answer = await api.client.GET('/api/v1/repositories/{repositoryId}/quantum/cbom', {
        params: { path: { repositoryId } },
        parseAs: 'blob',
      });
      const blob = await ok(Promise.resolve(answer));
      const disposition = answer.response.headers.get('content-disposition');
      saveBlob(blob, filenameOf(disposition, `cbom-${repositoryId}.cdx.json`));
    } catch (error) {
      setProblem(asProblem(error));
    }
  };
  return (
    <p>
      <button type="button" class="secondary" onClick={download}>
        Download the CBOM (CycloneDX 1.6)
      </button>
      {problem && <ErrorPanel problem={problem} />}
    </p>
  );
}
