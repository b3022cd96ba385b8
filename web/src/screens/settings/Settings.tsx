import { Benchmark } from './Benchmark';
import { DataExport } from './DataExport';
import { ScoringWeights } from './ScoringWeights';
import { Tokens } from './Tokens';
import { Usage } from './Usage';

/**
 * Settings (admins and owners): scoring weights, benchmark profile, API tokens, usage and data
 * export. Each section loads and saves on its own, so one failure leaves the others usable.
 */
export default function Settings() {
  return (
    <section aria-labelledby="screen-title">
      <h1 id="screen-title">Settings</h1>
      <nav aria-label="Settings sections" class="toc">
        <a href="#scoring-weights">Scoring weights</a>
        <a href="#benchmark">Benchmark profile</a>
        <a href="#api-tokens">API tokens</a>
        <a href="#usage">Usage</a>
        <a href="#data-export">Data export</a>
      </nav>
      <ScoringWeights />
      <Benchmark />
      <Tokens />
      <Usage />
      <DataExport />
    </section>
  );
}
