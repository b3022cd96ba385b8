import type { Ecosystem } from '../../../ecosystems/names';
import type { SeverityRating } from '../../../intel/osv/types';
import type { ExposureStatus } from '../../exposures/tables';
import { type Period, periodIn } from './dates';
import { vulnerabilityIdsIn, withoutVulnerabilityIds } from './ids';
import { type PackageMention, packagesIn } from './packages';
import {
  ECOSYSTEM_SYNONYMS,
  matchAll,
  SEVERITY_SYNONYMS,
  STATUS_SYNONYMS,
  WRITE_VERBS,
} from './vocabulary';

/**
 * A question as the intents read it: pure, no database. The text itself only ever selects an
 * intent and fills its parameters; it never reaches SQL (docs/questions.md#safety).
 */
export interface ParsedQuestion {
  /** The question as asked (trimmed). */
  text: string;
  /** When it was asked: relative dates and default windows count from here. */
  now: Date;
  /** Lower-case, vulnerability ids removed, whitespace collapsed: what the cues read. */
  normalised: string;
  vulnerabilityIds: string[];
  packages: PackageMention[];
  ecosystems: Ecosystem[];
  severities: SeverityRating[];
  statuses: ExposureStatus[];
  period: Period | null;
  /** A repository named in the question ("in repo web", "the payments repository"). */
  repository: string | null;
  /** A count asked for ("top 5", "10 most"). */
  limit: number | null;
  /** A number of days or hours ("within 3 days", "in the next 48 hours"), in hours. */
  horizonHours: number | null;
  /** The question asks to change something (refused: questions are read-only). */
  asksToWrite: boolean;
}

const NOT_REPOSITORIES = new Set(
  'the a an any each every all my our your which what this that their its one critical production prod important main primary same other most least have has had is are was were do does did with without in on at of for to from by and or since that use uses using'.split(
    ' ',
  ),
);

const REPOSITORY_PATTERNS: readonly RegExp[] = [
  /\b(?:repo|repository|project|service)\s+(?:named\s+|called\s+)?[`"']?([\w][\w./-]*\w|\w)[`"']?/,
  /\b(?:in|for|of)\s+(?:the\s+)?[`"']?([\w][\w./-]*\w)[`"']?\s+(?:repo|repository|project)\b/,
  /\bthe\s+[`"']?([\w][\w./-]*\w)[`"']?\s+(?:repo|repository|project)\b/,
];

function repositoryIn(text: string): string | null {
  for (const pattern of REPOSITORY_PATTERNS) {
    const name = pattern.exec(text)?.[1];
    if (name && !NOT_REPOSITORIES.has(name) && !/^(?:repo|repositor|project)/.test(name)) {
      return name;
    }
  }
  return null;
}

const NUMBER_WORDS: Record<string, number> = {
  three: 3,
  five: 5,
  ten: 10,
  twenty: 20,
};

function limitIn(text: string): number | null {
  const m =
    /\b(?:top|first|worst|best|biggest)\s+(\d{1,3}|three|five|ten|twenty)\b|\b(\d{1,3}|three|five|ten|twenty)\s+(?:most|least|worst|biggest)\b/.exec(
      text,
    );
  const word = m?.[1] ?? m?.[2];
  if (!word) return null;
  return NUMBER_WORDS[word] ?? Number(word);
}

function horizonIn(text: string): number | null {
  const m =
    /\b(?:within|in|next|coming|upcoming)\s+(?:the\s+)?(?:next\s+)?(\d{1,4})\s+(hours?|days?|weeks?)\b/.exec(
      text,
    );
  if (!m) return null;
  const n = Number(m[1]);
  const unit = m[2] ?? 'day';
  return unit.startsWith('hour') ? n : unit.startsWith('day') ? n * 24 : n * 24 * 7;
}

export function normaliseText(text: string): string {
  return text
    .toLowerCase()
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/\s+/g, ' ')
    .trim();
}

/** Reads a question; `now` and `timeZone` anchor its relative dates. */
export function parseQuestion(question: string, now: Date, timeZone = 'UTC'): ParsedQuestion {
  const text = question.trim();
  const withoutIds = withoutVulnerabilityIds(text);
  const normalised = normaliseText(withoutIds);
  return {
    text,
    now,
    normalised,
    vulnerabilityIds: vulnerabilityIdsIn(text),
    packages: packagesIn(withoutIds),
    ecosystems: matchAll(normalised, ECOSYSTEM_SYNONYMS),
    severities: matchAll(normalised, SEVERITY_SYNONYMS),
    statuses: matchAll(normalised, STATUS_SYNONYMS),
    period: periodIn(normalised, now, timeZone),
    repository: repositoryIn(normalised),
    limit: limitIn(normalised),
    horizonHours: horizonIn(normalised),
    asksToWrite: WRITE_VERBS.test(normalised),
  };
}
