import { describe, expect, it } from 'vitest';
import { scoreDetector } from '../../../test/support/quantum-corpus.js';
import { SOURCE_DETECTORS } from './detectors.js';

/** Every language's detector on its labelled corpus (docs/quantum.md#findings-in-source-code). */
describe.each(SOURCE_DETECTORS.map((detector) => [detector.language, detector] as const))(
  '%s corpus',
  (_language, detector) => {
    it('finds the labelled uses with precision >= 0.95 and recall >= 0.90', async () => {
      const score = await scoreDetector(detector);
      const report = [
        `${score.trueCases} true cases, ${score.falseCases} false files`,
        `precision ${score.precision.toFixed(3)}, recall ${score.recall.toFixed(3)}`,
        ...score.mistakes,
      ].join('\n');
      expect(score.trueCases, report).toBeGreaterThanOrEqual(40);
      expect(score.falseCases, report).toBeGreaterThanOrEqual(20);
      expect(score.precision, report).toBeGreaterThanOrEqual(0.95);
      expect(score.recall, report).toBeGreaterThanOrEqual(0.9);
    });
  },
);
