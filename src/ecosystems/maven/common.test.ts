import { describe, expect, it } from 'vitest';
import { classifyMavenVersion } from './common';

describe('Maven helpers', () => {
  it.each([
    ['1.0', 'resolved'],
    ['1.0-SNAPSHOT', 'resolved'],
    ['4.1.110.Final', 'resolved'],
    ['[1.0,2.0)', 'declared'],
    ['1.+', 'declared'],
    ['+', 'declared'],
    ['latest.release', 'declared'],
    ['LATEST', 'declared'],
    ['RELEASE', 'declared'],
    [`\${lib.version}`, 'declared'],
    ['$muleVersion', 'declared'],
    ['', 'unpinned'],
    [null, 'unpinned'],
  ])('classify(%j) = %s', (version, resolution) => {
    expect(classifyMavenVersion(version)).toBe(resolution);
  });
});
