import { parentPort, workerData } from 'node:worker_threads';
import { type CodeInventory, collectCodeInventory } from './inventory';

/**
 * The inventory worker thread's entry (started by ./inventory-thread.ts, never imported by the
 * service): reads one checkout's source, keys and certificates and posts the result once. The
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

const port = parentPort;
if (port) {
  const input = workerData as InventoryWorkerInput;
  const send = (message: InventoryWorkerMessage) => port.postMessage(message);
  collectCodeInventory(input.directory, new Date(input.now)).then(
    (inventory) => send({ type: 'done', inventory }),
    (error: unknown) =>
      send({ type: 'failed', message: error instanceof Error ? error.message : String(error) }),
  );
}
