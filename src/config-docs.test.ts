import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SETTINGS } from './config-settings';

describe('configuration documentation', () => {
  it('documents every setting in the README table', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const undocumented = SETTINGS.map(([name]) => name).filter(
      (name) => !readme.includes(`| \`${name}\` |`),
    );
    expect(undocumented).toEqual([]);
  });
});
