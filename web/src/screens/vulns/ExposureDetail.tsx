import { useEffect, useState } from 'preact/hooks';
import { ok } from '../../api/client';
import type { Ok } from '../../api/types';
import { ErrorPanel, Loading } from '../../components/status';
import { allows, type Role, useApp } from '../../context';
import { dateTime } from '../../format';
import { Link } from '../../router';
import type { ScreenProps } from '../../routes';
import { useLoad } from '../../use-load';
import { AffectedRanges, FixedVersions } from './Ranges';
import { TriageForm } from './TriageForm';

/** One exposure: what matched (ranges, fixed versions), where, its triage, and the triage form. */
type Exposure = Ok<'/api/v1/vulnerability-exposures/{exposureId}'>;

const TRIAGE_ROLES: readonly Role[] = ['member'];

export default function ExposureDetail({ params }: ScreenProps) {
  const exposureId = params.exposureId ?? '';
  const result = useLoad(
    (api) =>
      ok(
        api.client.GET('/api/v1/vulnerability-exposures/{exposureId}', {
          params: { path: { exposureId } },
        }),
      ),
    exposureId,
  );
  const [current, setCurrent] = useState<Exposure | null>(null);
  const loaded = result.state === 'ok' ? result.data : null;
  useEffect(() => setCurrent(loaded), [loaded]);
  return (
    <section aria-labelledby="screen-title">
      <h1 id="screen-title">
        Exposure{current ? `: ${current.canonicalId} in ${current.packageName}` : ''}
      </h1>
      <p>
        <Link href="/exposures">All exposures</Link>
      </p>
      {result.state === 'loading' && <Loading />}
      {result.state === 'error' && <ErrorPanel problem={result.problem} onRetry={result.reload} />}
      {current && <Body exposure={current} onTriaged={setCurrent} />}
    </section>
  );
}

function Body({
  exposure,
  onTriaged,
}: {
  exposure: Exposure;
  onTriaged: (next: Exposure) => void;
}) {
  const { principal } = useApp();
  return (
    <>
      <dl class="facts">
        <dt>Vulnerability</dt>
        <dd>
          <Link href={`/vulnerabilities/${encodeURIComponent(exposure.vulnerabilityId)}`}>
            {exposure.canonicalId}
          </Link>
          {exposure.aliases.length > 0 && ` (${exposure.aliases.join(', ')})`}
        </dd>
        <dt>Summary</dt>
        <dd>{exposure.summary ?? 'none given'}</dd>
        <dt>Severity</dt>
        <dd>
          {exposure.severity ?? 'unrated'}
          {exposure.severityScore !== null && ` (score ${exposure.severityScore})`}
        </dd>
        <dt>Package</dt>
        <dd>
          <code>{exposure.purl}</code> {exposure.version ?? ''} ({exposure.resolution})
          {exposure.possiblyAffected && ' · possibly affected'}
        </dd>
        <dt>Repository</dt>
        <dd>
          <Link href={`/repositories/${encodeURIComponent(exposure.repositoryId)}`}>
            {exposure.repositoryId}
          </Link>
          {exposure.files.length > 0 && ` · ${exposure.files.join(', ')}`}
        </dd>
        <dt>Reachability</dt>
        <dd>
          {exposure.reachability}
          {exposure.reachabilityEvidence &&
            ` · ${exposure.reachabilityEvidence.file}:${exposure.reachabilityEvidence.line}`}
          {exposure.reachabilityReason && ` · ${exposure.reachabilityReason}`}
        </dd>
        <dt>Status</dt>
        <dd>
          <strong>{exposure.status}</strong>
          {exposure.justification && ` · ${exposure.justification}`}
          {exposure.expiresAtUtc && ` · until ${dateTime(exposure.expiresAtUtc)}`}
          {exposure.reason && ` · “${exposure.reason}”`}
          {exposure.statusChangedAtUtc && ` · changed ${dateTime(exposure.statusChangedAtUtc)}`}
        </dd>
        <dt>Seen</dt>
        <dd>
          first {dateTime(exposure.firstSeenUtc)}, last {dateTime(exposure.lastSeenUtc)}
          {exposure.reintroducedCount > 0 && `, reintroduced ${exposure.reintroducedCount}×`}
        </dd>
      </dl>
      <h2>Fixed versions</h2>
      <FixedVersions versions={exposure.fixedVersions} />
      <h2>Affected ranges</h2>
      <AffectedRanges
        caption="Ranges of the matched advisories"
        entries={exposure.affectedRanges.map((entry) => ({ ...entry, label: entry.advisoryId }))}
      />
      <h2>Triage</h2>
      {allows(principal, { roles: TRIAGE_ROLES }) ? (
        <TriageForm key={exposure.status} exposure={exposure} onDone={onTriaged} />
      ) : (
        <p>Triage needs the member role.</p>
      )}
    </>
  );
}
