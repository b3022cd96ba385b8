/** One question of the corpus (questions-corpus.ts) and what its answer must be. */
export interface CorpusEntry {
  question: string;
  expect: string;
  rows?: number;
  /** The first row has these values. */
  first?: Record<string, unknown>;
  includes?: string;
  timeZone?: string;
}
