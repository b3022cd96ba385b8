import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

/**
 * The embedded database's worker thread entry (started by ./embedded.ts, never imported by the
 * service): PGlite and its socket server run here, so the queries the database executes (a
 * scan's tens of thousands of inserts among them) never hold the API's event loop; the main
 * thread only speaks the wire protocol to the socket.
 */
export interface EmbeddedWorkerInput {
  /** The data directory (`<DATA_DIR>/pgdata`), or null for an in-memory database. */
  pgdata: string | null;
  /**
   * The tarball to start from (transferred, not copied): an in-memory database's content, or
   * a new data directory's (a restore; refused by ./embedded.ts when one exists).
   */
  snapshot: ArrayBuffer | null;
  socketPath: string;
  /** PostgreSQL's `shared_buffers` (see EMBEDDED_SHARED_BUFFERS in ./embedded.ts). */
  sharedBuffers: string;
}

export type EmbeddedWorkerRequest = { type: 'snapshot'; id: number } | { type: 'stop' };

export type EmbeddedWorkerMessage =
  | { type: 'ready' }
  /** The dump's bytes, transferred to the main thread. */
  | { type: 'snapshot'; id: number; data: ArrayBuffer }
  | { type: 'snapshot-failed'; id: number; message: string }
  | { type: 'stopped' };

async function open(input: EmbeddedWorkerInput): Promise<PGlite> {
  if (input.pgdata && !existsSync(join(input.pgdata, 'PG_VERSION'))) {
    // First start runs initdb, or loads a backup's tarball (`driftwatch admin restore`);
    // closing and reopening drops its memory (~800 MiB to ~300 MiB).
    const fresh = await PGlite.create(
      input.pgdata,
      input.snapshot ? { loadDataDir: new Blob([input.snapshot]) } : {},
    );
    await fresh.close();
  }
  return PGlite.create({
    dataDir: input.pgdata ?? undefined,
    ...(input.snapshot && !input.pgdata ? { loadDataDir: new Blob([input.snapshot]) } : {}),
    startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${input.sharedBuffers}`],
  });
}

const port = parentPort;
if (port) {
  const input = workerData as EmbeddedWorkerInput;
  const send = (message: EmbeddedWorkerMessage, transfer: ArrayBuffer[] = []) =>
    port.postMessage(message, transfer);
  const db = await open(input);
  const server = new PGLiteSocketServer({ db, path: input.socketPath, maxConnections: 100 });
  await server.start();
  port.on('message', (request: EmbeddedWorkerRequest) => {
    if (request.type === 'stop') {
      void (async () => {
        await server.stop();
        await db.close();
        send({ type: 'stopped' });
      })();
      return;
    }
    db.dumpDataDir('none')
      .then((blob) => blob.arrayBuffer())
      .then(
        (data) => send({ type: 'snapshot', id: request.id, data }, [data]),
        (error: unknown) =>
          send({ type: 'snapshot-failed', id: request.id, message: String(error) }),
      );
  });
  send({ type: 'ready' });
}
