import { parentPort } from 'node:worker_threads';
import { type CodeInventory, collectCodeInventory } from './inventory';

/**
 * The inventory worker thread's entry (started by ./inventory-thread.ts, never imported by the
 * service): reads a checkout's source, keys and certificates for each request and posts the result. The
 * parsing is synchronous WebAssembly work, so in the service's own thread it would hold the
 * event loop for as long as it takes (hundreds of milliseconds on a crypto-heavy tree).
 */
export interface InventoryWorkerInput {
  directory: string;
  /** The scan's clock, ISO 8601 (certificate expiry is judged against it). */
  now: string;
}

export type InventoryWorkerMessage =
  | { type: 'done'; inventory: CodeInventory }
  | { type: 'failed'; message: string };

function isInput(value: unknown): value is InventoryWorkerInput {
  if (typeof value !== 'object' || value === null) return false;
  return (
    'directory' in value &&
    typeof value.directory === 'string' &&
    'now' in value &&
    typeof value.now === 'string'
  );
}

const port = parentPort;
if (port) {
  const send = (message: InventoryWorkerMessage) => port.postMessage(message);
  // One checkout at a time: the parent posts the next only after this one's answer, so a kept
  // thread serves scan after scan without loading its code and parsers again.
  port.on('message', (input: unknown) => {
    if (!isInput(input)) {
      send({ type: 'failed', message: 'not an inventory request' });
      return;
    }
    collectCodeInventory(input.directory, new Date(input.now)).then(
      (inventory) => send({ type: 'done', inventory }),
      (error: unknown) =>
        send({ type: 'failed', message: error instanceof Error ? error.message : String(error) }),
    );
  });
}
