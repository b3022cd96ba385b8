import { describe, expect, it } from 'vitest';
import { scoreDetector } from '../../../../test/support/quantum-corpus.js';
import { phpDetector } from './detector.js';

describe('PHP detector on the labelled corpus', () => {
  it('keeps precision at least 0.95 and recall at least 0.90', async () => {
    const score = await scoreDetector(phpDetector);
    const summary = `${score.truePositives} TP, ${score.falsePositives} FP, ${score.falseNegatives} FN\n${score.mistakes.join('\n')}`;
    expect(score.trueCases, summary).toBeGreaterThanOrEqual(40);
    expect(score.falseCases, summary).toBeGreaterThanOrEqual(20);
    expect(score.precision, summary).toBeGreaterThanOrEqual(0.95);
    expect(score.recall, summary).toBeGreaterThanOrEqual(0.9);
  });
});
