import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { QUANTUM_CORPUS, scoreDetector } from '../../../../test/support/quantum-corpus.js';
import { pythonDetector } from './detector.js';

describe('python corpus', () => {
  it('finds the labelled uses with precision >= 0.95 and recall >= 0.90', async () => {
    const score = await scoreDetector(pythonDetector);
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

  it('lets every true file through the prefilter', () => {
    const folder = join(QUANTUM_CORPUS, 'python', 'true');
    const blocked = readdirSync(folder).filter(
      (name) => !pythonDetector.mayContain?.(readFileSync(join(folder, name), 'utf8')),
    );
    expect(blocked).toEqual([]);
  });
});
