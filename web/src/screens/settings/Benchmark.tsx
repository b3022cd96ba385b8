import { useEffect, useState } from 'preact/hooks';
import { ok } from '../../api/client';
import type { Ok } from '../../api/types';
import { ErrorPanel, Loading } from '../../components/status';
import { useApp } from '../../context';
import { decimal } from '../../format';
import { useAction } from '../../use-action';
import { useLoad } from '../../use-load';

/**
 * The benchmark profile: peer group and opt-in, and the benchmark when the API has one. The
 * industry and size band lists are described strings in the API's schema (not enums), so they
 * are listed here; the API validates them.
 */
const INDUSTRIES = [
  'software',
  'financial-services',
  'healthcare',
  'retail',
  'manufacturing',
  'public-sector',
  'education',
  'telecommunications',
  'energy',
  'media',
  'other',
] as const;
const SIZE_BANDS = ['1-49', '50-249', '250-999', '1000-4999', '5000+'] as const;

type Profile = Ok<'/api/v1/tenants/current/benchmark-profile'>;

export function Benchmark() {
  const result = useLoad(
    (api) => ok(api.client.GET('/api/v1/tenants/current/benchmark-profile')),
    'benchmark',
  );
  const [profile, setProfile] = useState<Profile | null>(null);
  useEffect(() => {
    if (result.state === 'ok') setProfile(result.data);
  }, [result.state]);
  return (
    <section id="benchmark" aria-labelledby="benchmark-title" class="settings-section">
      <h2 id="benchmark-title">Benchmark profile</h2>
      {result.state === 'loading' && <Loading />}
      {result.state === 'error' && <ErrorPanel problem={result.problem} onRetry={result.reload} />}
      {profile && <BenchmarkForm profile={profile} onSaved={setProfile} />}
      {profile && <BenchmarkFigures benchmark={profile.benchmark} />}
    </section>
  );
}

function BenchmarkForm({ profile, onSaved }: { profile: Profile; onSaved: (p: Profile) => void }) {
  const { api } = useApp();
  const [industry, setIndustry] = useState(profile.industry ?? '');
  const [sizeBand, setSizeBand] = useState(profile.sizeBand ?? '');
  const [optIn, setOptIn] = useState(profile.optIn);
  const action = useAction();
  const submit = async (event: Event) => {
    event.preventDefault();
    const body = { industry: industry || null, sizeBand: sizeBand || null, optIn };
    const saved = await action.run(() =>
      ok(api.client.PATCH('/api/v1/tenants/current/benchmark-profile', { body })),
    );
    if (saved) onSaved(saved);
  };
  return (
    <form class="form" aria-label="Benchmark profile" onSubmit={submit}>
      <label for="benchmark-industry">
        Industry
        <select
          id="benchmark-industry"
          value={industry}
          onChange={(e) => setIndustry(e.currentTarget.value)}
        >
          <option value="">Not set</option>
          {INDUSTRIES.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </select>
      </label>
      <label for="benchmark-size">
        Size band
        <select
          id="benchmark-size"
          value={sizeBand}
          onChange={(e) => setSizeBand(e.currentTarget.value)}
        >
          <option value="">Not set</option>
          {SIZE_BANDS.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </select>
      </label>
      <label for="benchmark-optin" class="check">
        <input
          id="benchmark-optin"
          type="checkbox"
          checked={optIn}
          onChange={(e) => setOptIn(e.currentTarget.checked)}
        />
        Take part in benchmarks
      </label>
      {action.problem && <ErrorPanel problem={action.problem} />}
      <button type="submit" disabled={action.busy}>
        Save profile
      </button>
    </form>
  );
}

const figure = (value: number | null) => (value === null ? 'none' : decimal(value, 2));

function BenchmarkFigures({ benchmark }: { benchmark: Profile['benchmark'] }) {
  if (!benchmark.available) {
    return (
      <p class="muted">
        No benchmark: {benchmark.reason ?? 'not available'} (needs {benchmark.minimumPeerTenants}{' '}
        peer tenants).
      </p>
    );
  }
  const self = benchmark.self;
  const peers = benchmark.peers;
  return (
    <table class="data">
      <caption>Benchmark against {benchmark.peerTenants ?? 0} peer tenants</caption>
      <thead>
        <tr>
          <th scope="col">Figure</th>
          <th scope="col">You</th>
          <th scope="col">Peer median</th>
          <th scope="col">Peer p25</th>
          <th scope="col">Peer p75</th>
        </tr>
      </thead>
      <tbody>
        {(['libyearPerDependency', 'outdatedShare', 'meanHealthScore'] as const).map((key) => (
          <tr key={key}>
            <th scope="row">{key}</th>
            <td>{figure(self ? self[key] : null)}</td>
            <td>{figure(peers ? peers[key].median : null)}</td>
            <td>{figure(peers ? peers[key].p25 : null)}</td>
            <td>{figure(peers ? peers[key].p75 : null)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
