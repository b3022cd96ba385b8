/**
 * The labelled corpus of the source detectors (docs/quantum.md#findings-in-source-code).
 *
 * Layout: test/support/quantum-corpus/<language>/<true|false>/<scenario-name>.<ext>, one
 * real-world shape per file. A line the detector must report carries a trailing comment
 * `expect: <primitive> <algorithm>` (for example `// expect: key-generation RSA`); a line may
 * carry several, separated by `;`. Files under false/ hold no crypto use at all (a mention in
 * a comment, a log message, a variable name, a string never passed to a crypto API, a hash or
 * a symmetric cipher), so every use reported there is a false positive.
 *
 * A case is one expected (line, primitive, algorithm) in a true file, or one false file. A
 * reported use matches an expected one on line, primitive and algorithm.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import type { LanguageDetector, SourceLanguage } from '../../src/cryptography/source/types.js';

export const QUANTUM_CORPUS = join(import.meta.dirname, 'quantum-corpus');

export interface CorpusScore {
  language: SourceLanguage;
  trueCases: number;
  falseCases: number;
  truePositives: number;
  falsePositives: number;
  falseNegatives: number;
  precision: number;
  recall: number;
  /** One line per miss or false alarm: `missed file:line primitive algorithm` or `extra ...`. */
  mistakes: string[];
}

const EXPECT = /expect:\s*([^\n]*?)\s*(?:\*\/|-->|$)/;

function expectedUses(text: string): string[] {
  const keys: string[] = [];
  text.split('\n').forEach((line, index) => {
    const marker = EXPECT.exec(line);
    if (!marker?.[1]) return;
    for (const one of marker[1].split(';')) {
      const [primitive, algorithm] = one.trim().split(/\s+/);
      if (primitive && algorithm) keys.push(`${index + 1} ${primitive} ${algorithm}`);
    }
  });
  return keys;
}

function filesOf(folder: string): string[] {
  try {
    return readdirSync(folder)
      .filter((name) => !name.startsWith('.'))
      .sort();
  } catch {
    return [];
  }
}

/** Scores one detector on its language's folder of the corpus. */
export async function scoreDetector(
  detector: LanguageDetector,
  folderName: string = detector.language,
): Promise<CorpusScore> {
  const score: CorpusScore = {
    language: detector.language,
    trueCases: 0,
    falseCases: 0,
    truePositives: 0,
    falsePositives: 0,
    falseNegatives: 0,
    precision: 0,
    recall: 0,
    mistakes: [],
  };
  for (const label of ['true', 'false'] as const) {
    const folder = join(QUANTUM_CORPUS, folderName, label);
    for (const name of filesOf(folder)) {
      if (!detector.extensions.includes(extname(name))) continue;
      const text = readFileSync(join(folder, name), 'utf8');
      const expected = label === 'true' ? expectedUses(text) : [];
      if (label === 'false') score.falseCases += 1;
      score.trueCases += expected.length;
      const report = await detector.detect(`${label}/${name}`, text);
      const reported = new Set(report.uses.map((u) => `${u.line} ${u.primitive} ${u.algorithm}`));
      for (const key of expected) {
        if (reported.has(key)) score.truePositives += 1;
        else {
          score.falseNegatives += 1;
          score.mistakes.push(`missed ${label}/${name}:${key}`);
        }
      }
      const wanted = new Set(expected);
      for (const key of reported) {
        if (wanted.has(key)) continue;
        score.falsePositives += 1;
        score.mistakes.push(`extra ${label}/${name}:${key}`);
      }
    }
  }
  const found = score.truePositives + score.falsePositives;
  score.precision = found === 0 ? 1 : score.truePositives / found;
  const wanted = score.truePositives + score.falseNegatives;
  score.recall = wanted === 0 ? 0 : score.truePositives / wanted;
  return score;
}
