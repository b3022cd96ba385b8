import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeText } from '../extract-tree';
import { NotTextError, openFileText } from './file-text';

const dir = mkdtempSync(join(tmpdir(), 'driftwatch-file-text-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(name: string, bytes: Uint8Array | string): string {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
}

function readAll(path: string, pieceBytes: number): string {
  const file = openFileText(path, pieceBytes);
  let text = '';
  for (let piece = file.next(); piece !== null; piece = file.next()) text += piece;
  file.close();
  return text;
}

/** What the whole-file path makes of the same bytes (decodeText, then extractOne's BOM strip). */
function wholeText(bytes: Uint8Array): string | null {
  const decoded = decodeText(bytes);
  if ('error' in decoded) return null;
  return decoded.text.charCodeAt(0) === 0xfeff ? decoded.text.slice(1) : decoded.text;
}

describe('openFileText', () => {
  const text = 'Grüße, 日本語, emoji 😀 and ascii\n'.repeat(50);
  it.each([
    ['plain', Buffer.from(text, 'utf8')],
    ['with a byte-order mark', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)])],
    [
      'with two byte-order marks',
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf]), Buffer.from(text)]),
    ],
    ['empty', Buffer.alloc(0)],
  ])('reads %s text like the whole-file path, in pieces of any size', (name, bytes) => {
    const path = write(`${name}.txt`, bytes);
    for (const size of [1, 2, 3, 5, 1024]) expect(readAll(path, size)).toBe(wholeText(bytes));
  });

  it.each([
    ['a NUL byte', Buffer.from('{"a": "x\u0000"}')],
    ['invalid UTF-8', Buffer.from([0x7b, 0xff, 0xfe, 0x7d])],
    ['a sequence cut off at the end', Buffer.from([0x7b, 0x7d, 0xe6, 0x97])],
  ])('refuses %s (the whole-file path names it)', (name, bytes) => {
    const path = write(`${name}.bin`, bytes);
    expect(wholeText(bytes)).toBeNull();
    for (const size of [1, 2, 4096]) expect(() => readAll(path, size)).toThrow(NotTextError);
  });
});
