/**
 * Table tests of the source detectors: a scenario name, a snippet, and the uses (with curve, key
 * size and `assumed` when the case is about them) and algorithms the detector must report.
 */
import { expect, it } from 'vitest';
import type { LanguageDetector, SourceCryptoUse } from '../../src/cryptography/source/types.js';

export type ExpectedUse = Partial<Pick<SourceCryptoUse, 'curve' | 'keySize' | 'assumed'>> & {
  line: number;
  primitive: SourceCryptoUse['primitive'];
  algorithm: SourceCryptoUse['algorithm'];
};

export interface DetectorCase {
  name: string;
  /** The file name the detector sees (its extension picks the grammar). */
  file: string;
  code: string;
  uses: ExpectedUse[];
  /** When given, the algorithms (hashes, ciphers) the detector must report, in line order. */
  algorithms?: string[];
}

/** One `it` per case. */
export function detectorCases(detector: LanguageDetector, cases: readonly DetectorCase[]): void {
  for (const testCase of cases) {
    it(testCase.name, async () => {
      const report = await detector.detect(testCase.file, testCase.code);
      const uses = report.uses.map(({ line, primitive, algorithm, curve, keySize, assumed }) => ({
        line,
        primitive,
        algorithm,
        ...(curve ? { curve } : {}),
        ...(keySize ? { keySize } : {}),
        ...(assumed ? { assumed } : {}),
      }));
      expect(uses).toEqual(testCase.uses);
      if (testCase.algorithms) {
        expect(report.algorithms.map((found) => found.algorithm)).toEqual(testCase.algorithms);
      }
    });
  }
}
