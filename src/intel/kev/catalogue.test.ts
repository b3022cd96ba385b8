import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { kevCatalogue, kevEntry } from '../../../test/support/scenarios';
import { KevInputError, parseKevCatalogue, readKevFile } from './catalogue';

describe('KEV catalogue parsing', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dw-kev-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads a catalogue: entries trimmed, optional fields null, cwes kept', () => {
    const parsed = parseKevCatalogue(
      kevCatalogue([
        kevEntry('CVE-2026-0001'),
        { cveID: 'CVE-2026-0002', vendorProject: ' V ', product: 'P', dateAdded: '2026-01-31' },
      ]),
    );
    expect(parsed.catalogVersion).toBe('2026.03.02');
    expect(parsed.dateReleased.toISOString()).toBe('2026-03-02T15:00:00.000Z');
    expect(parsed.entries[0]).toMatchObject({ cveId: 'CVE-2026-0001', cwes: ['CWE-787'] });
    expect(parsed.entries[1]).toMatchObject({
      vendorProject: 'V',
      dueDate: null,
      notes: null,
      knownRansomwareCampaignUse: null,
      cwes: [],
    });
  });

  it.each([
    ['not an object', [], /not an object/],
    [
      'no vulnerabilities',
      { catalogVersion: '1', dateReleased: '2026-01-01T00:00:00Z' },
      /not an array/,
    ],
    ['no version', { ...kevCatalogue([]), catalogVersion: '' }, /catalogVersion/],
    ['bad release date', { ...kevCatalogue([]), dateReleased: 'yesterday' }, /dateReleased/],
    ['bad CVE id', kevCatalogue([kevEntry('CVE-26-1')]), /cveID must look like/],
    [
      'missing vendor',
      kevCatalogue([kevEntry('CVE-2026-0003', { vendorProject: undefined })]),
      /vendorProject is required/,
    ],
    [
      'impossible date',
      kevCatalogue([kevEntry('CVE-2026-0004', { dateAdded: '2026-02-30' })]),
      /dateAdded must be a date/,
    ],
    [
      'number for text',
      kevCatalogue([kevEntry('CVE-2026-0005', { product: 42 })]),
      /product must be a string/,
    ],
    [
      'NUL in text',
      kevCatalogue([kevEntry('CVE-2026-0006', { notes: 'a\u0000b' })]),
      /cannot be stored/,
    ],
    [
      'lone surrogate',
      kevCatalogue([kevEntry('CVE-2026-0007', { notes: 'a\uD800b' })]),
      /cannot be stored/,
    ],
    ['bad cwes', kevCatalogue([kevEntry('CVE-2026-0008', { cwes: 'CWE-1' })]), /cwes/],
    ['entry not an object', kevCatalogue(['CVE-2026-0009']), /must be an object/],
    [
      'listed twice',
      kevCatalogue([kevEntry('CVE-2026-0010'), kevEntry('CVE-2026-0010')]),
      /listed twice/,
    ],
  ])('refuses %s with one line naming the problem', (_name, document, message) => {
    let error: unknown;
    try {
      parseKevCatalogue(document);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(KevInputError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain('\n');
  });

  it('reports at most five problems of a long bad file', () => {
    const bad = Array.from({ length: 50 }, (_, i) => kevEntry(`bad-${i}`));
    const message = (() => {
      try {
        parseKevCatalogue(kevCatalogue(bad));
      } catch (error) {
        return (error as Error).message;
      }
      return '';
    })();
    expect(message.split('; ')).toHaveLength(5);
  });

  it('refuses a missing file, a directory and a file that is not JSON', async () => {
    await expect(readKevFile(join(dir, 'missing.json'))).rejects.toThrow(/no such file/);
    await expect(readKevFile(dir)).rejects.toThrow(/not a regular file/);
    const text = join(dir, 'text.json');
    writeFileSync(text, 'catalogVersion: 1');
    await expect(readKevFile(text)).rejects.toThrow(KevInputError);
    const good = join(dir, 'good.json');
    writeFileSync(good, JSON.stringify(kevCatalogue([kevEntry('CVE-2026-0011')])));
    expect((await readKevFile(good)).entries).toHaveLength(1);
  });
});
