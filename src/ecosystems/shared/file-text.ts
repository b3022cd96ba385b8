import { closeSync, openSync, readSync } from 'node:fs';

/** The bytes of a file read piece by piece are not text (a NUL byte, invalid UTF-8). */
export class NotTextError extends Error {}

/** Bytes read per piece: large enough that the reads cost nothing next to the parsing. */
export const FILE_PIECE_BYTES = 1024 * 1024;

export interface FileText {
  /** The next piece of text, null at the end of the file. */
  next: () => string | null;
  close: () => void;
}

/**
 * A file's text piece by piece (docs/extraction.md, "Large lockfiles"): `pieceBytes` read at a
 * time into one reused buffer and decoded as strict UTF-8 across piece boundaries, so only one
 * piece is ever held. Read synchronously: the extractors are synchronous and run in the scan's
 * extraction worker thread, which does nothing else meanwhile. A NUL byte or invalid UTF-8
 * throws NotTextError (the caller reads such a file the ordinary way, which names the problem).
 * A leading byte-order mark is dropped, as `decodeText` and `extractOne` drop it for whole files
 * (the decoder's own, then one more).
 */
export function openFileText(path: string, pieceBytes = FILE_PIECE_BYTES): FileText {
  const fd = openSync(path, 'r');
  const buffer = Buffer.allocUnsafe(pieceBytes);
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let open = true;
  let first = true;
  const close = () => {
    if (!open) return;
    open = false;
    closeSync(fd);
  };
  const decode = (bytes?: Uint8Array): string => {
    try {
      return bytes ? decoder.decode(bytes, { stream: true }) : decoder.decode();
    } catch {
      throw new NotTextError('not valid UTF-8 text');
    }
  };
  const withoutMark = (text: string): string => {
    if (!first || text === '') return text;
    first = false;
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  };
  const next = (): string | null => {
    while (open) {
      const read = readSync(fd, buffer, 0, pieceBytes, null);
      if (read === 0) {
        close();
        const rest = withoutMark(decode());
        return rest === '' ? null : rest;
      }
      const bytes = buffer.subarray(0, read);
      if (bytes.includes(0)) throw new NotTextError('binary file (contains NUL bytes)');
      const text = withoutMark(decode(bytes));
      if (text !== '') return text;
    }
    return null;
  };
  return { next, close };
}
