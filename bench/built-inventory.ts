import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type {
  InventoryWorkerInput,
  InventoryWorkerMessage,
} from '../src/domains/quantum/inventory-worker';

/** The built inventory worker (dist/, `npm run build`), as deployed. */
export const BUILT_INVENTORY = join(process.cwd(), 'dist/src/domains/quantum/inventory-worker.js');

/** One checkout's inventory in a new built thread, ended after its answer (thread start included). */
export function builtInventoryThread(directory: string): Promise<void> {
  const input: InventoryWorkerInput = { directory, now: new Date().toISOString() };
  return new Promise((resolve, reject) => {
    const worker = new Worker(BUILT_INVENTORY, { stdout: false, stderr: false });
    worker.postMessage(input);
    worker.on('message', (message: InventoryWorkerMessage) => {
      if (message.type === 'done') void worker.terminate().then(() => resolve());
      else reject(new Error(message.message));
    });
    worker.on('error', reject);
  });
}
