import { describe, expect, it } from 'vitest';
import { classifyNuGetVersion, normaliseNuGetName } from './common';

describe('NuGet helpers', () => {
  it('lowercases package IDs', () => {
    expect(normaliseNuGetName(' Newtonsoft.Json ')).toBe('newtonsoft.json');
  });

  it.each([
    ['13.0.3', { version: '13.0.3', resolution: 'resolved' }],
    ['[13.0.3]', { version: '13.0.3', resolution: 'resolved' }],
    ['[8.0.2, 8.0.2]', { version: '8.0.2', resolution: 'resolved' }],
    ['[8.0.2, )', { version: '[8.0.2, )', resolution: 'declared' }],
    ['1.*', { version: '1.*', resolution: 'declared' }],
    ['$(XUnitVersion)', { version: '$(XUnitVersion)', resolution: 'declared' }],
    ['not a version', { version: 'not a version', resolution: 'declared' }],
    ['  ', { version: null, resolution: 'unpinned' }],
    [null, { version: null, resolution: 'unpinned' }],
  ])('classify(%j)', (text, expected) => {
    expect(classifyNuGetVersion(text)).toEqual(expected);
  });
});
