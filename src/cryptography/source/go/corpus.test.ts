import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { QUANTUM_CORPUS, scoreDetector } from '../../../../test/support/quantum-corpus.js';
import { goDetector } from './detector.js';

describe('go corpus', () => {
  it('finds the labelled uses with precision >= 0.95 and recall >= 0.90', async () => {
    const score = await scoreDetector(goDetector);
    const summary = `${score.trueCases} true, ${score.falseCases} false, precision ${score.precision.toFixed(3)}, recall ${score.recall.toFixed(3)}`;
    expect(score.mistakes, summary).toEqual([]);
    expect(score.trueCases).toBeGreaterThanOrEqual(40);
    expect(score.falseCases).toBeGreaterThanOrEqual(20);
    expect(score.precision).toBeGreaterThanOrEqual(0.95);
    expect(score.recall).toBeGreaterThanOrEqual(0.9);
  });

  it('lets every true file through the prefilter', () => {
    const folder = join(QUANTUM_CORPUS, 'go', 'true');
    const blocked = readdirSync(folder).filter(
      (name) => !goDetector.mayContain?.(readFileSync(join(folder, name), 'utf8')),
    );
    expect(blocked).toEqual([]);
  });
});
