import { writeSync } from 'node:fs';

/**
 * Writes a command's report to standard output. Straight to file descriptor 1 when it is
 * blocking (the usual terminal, file or pipe): setting up `process.stdout` costs a short offline
 * run about 3 ms. Where the descriptor refuses a synchronous write (EAGAIN on a non-blocking
 * pipe), the rest goes through `process.stdout`.
 */
export function writeReport(text: string): void {
  const bytes = Buffer.from(text, 'utf8');
  let offset = 0;
  try {
    while (offset < bytes.length) offset += writeSync(1, bytes, offset);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
    process.stdout.write(bytes.subarray(offset));
  }
}
