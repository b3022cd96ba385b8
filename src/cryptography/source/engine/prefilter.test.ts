import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { QUANTUM_CORPUS } from '../../../../test/support/quantum-corpus.js';
import { SOURCE_DETECTORS } from '../detectors.js';
import { allOf, anyOf, apiNamePrefilter, keywordPrefilter } from './prefilter.js';

describe('prefilters', () => {
  it('matches distinctive API names anywhere, generic ones only as code reaches them', () => {
    const check = apiNamePrefilter(['generateKeyPairSync', 'sign']);
    expect(check('x.generateKeyPairSync(')).toBe(true);
    expect(check('crypto.sign(null, data, key)')).toBe(true);
    expect(check("import { sign } from 'node:crypto'")).toBe(true);
    expect(check('from jwt import sign')).toBe(true);
    expect(check('// users sign in here')).toBe(false);
    expect(check('const signature = hmac.digest()')).toBe(false);
  });

  it('combines checks', () => {
    const a = keywordPrefilter(['alpha']);
    const b = keywordPrefilter(['beta']);
    expect(allOf(a, b)('alpha beta')).toBe(true);
    expect(allOf(a, b)('alpha')).toBe(false);
    expect(anyOf(a, b)('beta')).toBe(true);
    expect(anyOf(a, b)('gamma')).toBe(false);
  });

  describe.each(SOURCE_DETECTORS.map((detector) => [detector.language, detector] as const))(
    '%s on the labelled corpus',
    (language, detector) => {
      const files = (label: string) => {
        const folder = join(QUANTUM_CORPUS, language, label);
        return readdirSync(folder).map((name) => readFileSync(join(folder, name), 'utf8'));
      };

      it('lets every true file through and keeps some false files out', () => {
        const blocked = files('true').filter((text) => !detector.mayContain?.(text));
        expect(blocked).toEqual([]);
        const admitted = files('false').filter((text) => detector.mayContain?.(text));
        expect(admitted.length).toBeLessThan(files('false').length);
      });

      it('lets through every file whose hashes or ciphers the CBOM records', async () => {
        const recording: string[] = [];
        for (const label of ['true', 'false']) {
          const folder = join(QUANTUM_CORPUS, language, label);
          for (const name of readdirSync(folder)) {
            const text = readFileSync(join(folder, name), 'utf8');
            const report = await detector.detect(name, text);
            if (report.algorithms.length > 0) recording.push(`${label}/${name}`);
            if (report.algorithms.length > 0 && !detector.mayContain?.(text)) {
              throw new Error(`${label}/${name} records algorithms but is not parsed`);
            }
          }
        }
        // Each language's corpus has hash-only or cipher-only files among its false cases.
        expect(recording.filter((name) => name.startsWith('false/')).length).toBeGreaterThan(0);
      });
    },
  );
});
