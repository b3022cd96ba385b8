import { describe, expect, it } from 'vitest';
import { filenameOf } from './download';

describe('filenameOf', () => {
  it('reads the quoted and the bare file name', () => {
    expect(filenameOf('attachment; filename="cbom-1.cdx.json"', 'x')).toBe('cbom-1.cdx.json');
    expect(filenameOf('attachment; filename=pack.pdf', 'x')).toBe('pack.pdf');
  });
  it('prefers filename* and decodes it', () => {
    expect(
      filenameOf(`attachment; filename="a.md"; filename*=UTF-8''r%C3%A9sum%C3%A9.md`, 'x'),
    ).toBe('r\u00e9sum\u00e9.md');
  });
  it('keeps only the last path segment and falls back when there is none', () => {
    expect(filenameOf('attachment; filename="../../etc/passwd"', 'x')).toBe('passwd');
    expect(filenameOf('attachment; filename=".."', 'fallback.bin')).toBe('fallback.bin');
    expect(filenameOf(null, 'fallback.bin')).toBe('fallback.bin');
    expect(filenameOf('inline', 'fallback.bin')).toBe('fallback.bin');
    expect(filenameOf(`attachment; filename*=UTF-8''%E0%A4%A`, 'bad.bin')).toBe('bad.bin');
  });
});
