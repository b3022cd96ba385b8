import type { Ecosystem } from '../../../ecosystems/names';
import type { SeverityRating } from '../../../intel/osv/types';
import type { ExposureStatus } from '../../exposures/tables';

/**
 * The words a question may use for the service's enumerations (docs/questions.md#vocabulary):
 * each synonym is a whole-word pattern over the normalised (lower-case) question. Kept as data so
 * the documentation and the tests read the same table.
 */

export const ECOSYSTEM_SYNONYMS: ReadonlyArray<readonly [Ecosystem, RegExp]> = [
  ['npm', /\b(?:npm|node(?:\.?js)?|javascript|typescript|yarn|pnpm)\b/],
  ['PyPI', /\b(?:pypi|python|pip)\b/],
  ['Maven', /\b(?:maven|java|gradle|jvm|kotlin)\b/],
  // "go" alone is a verb ("what got worse", "go back"); only the unambiguous spellings count.
  ['Go', /\b(?:golang|go (?:modules?|packages?|ecosystem|dependencies)|in go\b|go\.mod)/],
  ['Cargo', /\b(?:cargo|rust|crates(?:\.io)?)\b/],
  ['RubyGems', /\b(?:rubygems|ruby|gems?|bundler)\b/],
  ['Composer', /\b(?:composer|php|packagist)\b/],
  ['NuGet', /(?:\bnuget\b|\.net\b|\bdotnet\b|\bc#|\bcsharp\b)/],
  ['Docker', /\b(?:docker|container images?|containers?)\b/],
];

export const SEVERITY_SYNONYMS: ReadonlyArray<readonly [SeverityRating, RegExp]> = [
  ['critical', /\b(?:critical|crit|criticals|p0|sev ?1|most severe)\b/],
  ['high', /\b(?:high|highs|high-severity|important|serious)\b/],
  ['medium', /\b(?:medium|moderate|med|mediums)\b/],
  ['low', /\b(?:low|lows|minor|low-severity)\b/],
];

/** Exposure statuses; `unresolved` (the default) is every status still needing work. */
export const STATUS_SYNONYMS: ReadonlyArray<readonly [ExposureStatus, RegExp]> = [
  ['accepted_risk', /\b(?:accepted(?: risks?)?|risk[- ]accepted|accepted_risk)\b/],
  ['false_positive', /\b(?:false positives?|false_positive)\b/],
  ['not_affected', /\b(?:not affected|not_affected)\b/],
  ['investigating', /\b(?:investigating|under investigation|being investigated)\b/],
  ['fixed', /\b(?:fixed|resolved|remediated|patched|closed)\b/],
  // "unresolved" and "outstanding" name no status: the default, every status needing work.
  ['open', /\b(?:open|unfixed|untriaged)\b/],
];

/** Statuses that still need work: what "exposures" means when no status is named. */
export const UNRESOLVED_STATUSES: readonly ExposureStatus[] = [
  'open',
  'investigating',
  'affected',
  'accepted_risk',
];

/** Words that ask the service to change something: questions are read-only. */
export const WRITE_VERBS =
  /^(?:please\s+)?(?:delete|remove|drop|update|insert|create|add|set|change|modify|triage|dismiss|acknowledge|accept|suppress|ignore|rescan|scan|trigger|revoke|disable|enable|purge|truncate|grant|mark|close|fix|upgrade|bump|deprecate|probe|remediate)\b/;

export function matchAll<T>(text: string, table: ReadonlyArray<readonly [T, RegExp]>): T[] {
  return table.filter(([, pattern]) => pattern.test(text)).map(([value]) => value);
}
