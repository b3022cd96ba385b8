import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';

/**
 * Text kept in a temporary file instead of memory until it is read back, in order, once; for a
 * report or an intermediate result too large to hold (`driftwatch audit` on a large tree). The
 * file is removed by `dispose` (after reading it back, or when the command stops early).
 */
export class Spool {
  private readonly dir = mkdtempSync(join(tmpdir(), 'driftwatch-spool-'));
  private readonly fd = openSync(join(this.dir, 'spool'), 'w+');
  private size = 0;

  write(text: string): void {
    const bytes = Buffer.from(text, 'utf8');
    let offset = 0;
    while (offset < bytes.length) offset += writeSync(this.fd, bytes, offset);
    this.size += bytes.length;
  }

  /** The text written, from the start, in pieces of about `chunkBytes` (whole characters). */
  *texts(chunkBytes = 1024 * 1024): Generator<string> {
    const chunk = Buffer.alloc(chunkBytes);
    const decoder = new StringDecoder('utf8');
    for (let position = 0; position < this.size; ) {
      const read = readSync(this.fd, chunk, 0, chunk.length, position);
      if (read === 0) break;
      position += read;
      yield decoder.write(chunk.subarray(0, read));
    }
    const rest = decoder.end();
    if (rest) yield rest;
  }

  /** The text written, line by line (without the line feeds). */
  *lines(): Generator<string> {
    let partial = '';
    for (const text of this.texts()) {
      const parts = (partial + text).split('\n');
      partial = parts.pop()!;
      yield* parts;
    }
    if (partial) yield partial;
  }

  dispose(): void {
    try {
      closeSync(this.fd);
    } catch {
      // Already closed.
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}
