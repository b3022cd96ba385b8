import { useState } from 'preact/hooks';
import { done, ok } from '../../api/client';
import { type ApiProblem, asProblem } from '../../api/problem';
import type { Ok } from '../../api/types';
import { ErrorPanel, Loading } from '../../components/status';
import { allows, type Role, useApp } from '../../context';
import { count, dateTime, decimal } from '../../format';
import { Link } from '../../router';
import type { ScreenProps } from '../../routes';
import { useLoad } from '../../use-load';
import { HealthSection } from './Health';
import { ReplacementsSection, RiskSection, UsageSection } from './Risk';

/**
 * One package: its registry facts, health score with each signal's evidence, health history,
 * risk indicators, replacement candidates and the tenant's repositories using it; Watch and
 * Unwatch for members and up (the button offers the one move that applies).
 */
type Detail = Ok<'/api/v1/packages/{packageId}'>;

const WATCH_ROLES: readonly Role[] = ['member'];

export default function PackageScreen({ params }: ScreenProps) {
  const packageId = params.packageId ?? '';
  const result = useLoad(
    (api) =>
      ok(api.client.GET('/api/v1/packages/{packageId}', { params: { path: { packageId } } })),
    packageId,
  );
  return (
    <section aria-labelledby="screen-title">
      <p class="crumbs">
        <Link href="/packages">Packages</Link>
      </p>
      <h1 id="screen-title">
        {result.state === 'ok' ? `${result.data.name} (${result.data.ecosystem})` : 'Package'}
      </h1>
      {result.state === 'loading' && <Loading label="Loading the package" />}
      {result.state === 'error' && <ErrorPanel problem={result.problem} onRetry={result.reload} />}
      {result.state === 'ok' && (
        <>
          <WatchControl detail={result.data} />
          <div class="grid two">
            <Facts detail={result.data} />
            <RiskSection packageId={packageId} />
          </div>
          <HealthSection packageId={packageId} />
          <ReplacementsSection packageId={packageId} />
          <UsageSection packageId={packageId} />
        </>
      )}
    </section>
  );
}

function WatchControl({ detail }: { detail: Detail }) {
  const { api, principal } = useApp();
  const [watched, setWatched] = useState(detail.watched);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<ApiProblem | null>(null);
  const path = { packageId: detail.packageId };
  const toggle = async () => {
    setBusy(true);
    setProblem(null);
    try {
      if (watched)
        await done(api.client.DELETE('/api/v1/packages/{packageId}/watch', { params: { path } }));
      else
        await ok(
          api.client.POST('/api/v1/packages/{packageId}/watch', { params: { path }, body: {} }),
        );
      // What the service now says, not what was asked for.
      const fresh = await ok(api.client.GET('/api/v1/packages/{packageId}', { params: { path } }));
      setWatched(fresh.watched);
    } catch (error) {
      setProblem(asProblem(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div class="actions">
      <p role="status" aria-live="polite">
        {watched ? 'You watch this package.' : 'Not watched.'}{' '}
        <Link href="/packages/watched">Watched packages</Link>
      </p>
      {allows(principal, { roles: WATCH_ROLES }) && (
        <button type="button" onClick={toggle} disabled={busy}>
          {watched ? 'Unwatch' : 'Watch'}
        </button>
      )}
      {problem && <ErrorPanel problem={problem} />}
    </div>
  );
}

function Facts({ detail: d }: { detail: Detail }) {
  const rows: [string, string][] = [
    ['Package URL', d.purl],
    ['Latest stable', d.latestStableVersion ?? 'unknown'],
    ['Latest', d.latestVersion ?? 'unknown'],
    ['Licence', d.licence ?? 'unknown'],
    ['Deprecated', d.deprecated ? (d.deprecationMessage ?? 'yes') : 'no'],
    ['Successor', d.successor ?? 'none named'],
    ['Versions', count(d.versionCount)],
    ['First release', dateTime(d.firstReleaseAtUtc)],
    ['Last release', dateTime(d.lastReleaseAtUtc)],
    ['Releases in the last year', count(d.releasesLastYear)],
    [
      'Median days between releases',
      d.medianDaysBetweenReleases === null ? 'unknown' : decimal(d.medianDaysBetweenReleases),
    ],
    ['Maintainers', d.maintainers.length > 0 ? d.maintainers.join(', ') : 'unknown'],
    [
      'Install scripts',
      d.installScripts === null ? 'unknown' : d.installScripts.join(', ') || 'none',
    ],
    [
      'Registry data',
      `${d.metadataStatus.replace('_', ' ')}, fetched ${dateTime(d.metadataFetchedAtUtc)}`,
    ],
  ];
  return (
    <div class="panel">
      <h2>Facts</h2>
      {d.description && <p>{d.description}</p>}
      <dl class="fact-rows">
        {rows.map(([term, value]) => (
          <div key={term}>
            <dt>{term}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
