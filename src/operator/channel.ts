import {
  chmodSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type IncomingMessage, request, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runningOwner } from '../db/embedded';
import {
  isOperationName,
  OperationInputError,
  type OperationName,
  type OperationResult,
  type OperatorContext,
  runOperation,
} from './operations';

/**
 * The operator channel of the process that owns an embedded data directory
 * (docs/operations.md#operator-commands): HTTP on a Unix socket in a private directory (0700,
 * the socket 0600), named by `DATA_DIR/operator.json` (0600). Only the local user who runs the
 * service can reach it; there is no token to leak and no port. The CLI finds the owner through
 * the lock file, reads the record, and sends its operations here instead of opening the
 * directory a second time.
 */
export const OPERATOR_RECORD = 'operator.json';

const BODY_LIMIT_BYTES = 1024 * 1024;

export interface OperatorChannel {
  socketPath: string;
  close: () => Promise<void>;
}

interface OperatorRecord {
  pid: number;
  socket: string;
}

export interface OperatorLog {
  warn: (details: object, message: string) => void;
  error: (details: object, message: string) => void;
}

function send(response: ServerResponse, status: number, body: object): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

async function readBody(message: IncomingMessage): Promise<unknown> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of message) {
    size += (chunk as Buffer).length;
    if (size > BODY_LIMIT_BYTES) throw new OperationInputError('request body too large');
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
  } catch {
    throw new OperationInputError('request body is not JSON');
  }
}

async function handle(
  context: OperatorContext,
  log: OperatorLog,
  message: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const name = /^\/operations\/([a-z-]+)$/.exec(message.url ?? '')?.[1];
  if (message.method !== 'POST' || !name || !isOperationName(name)) {
    send(response, 404, { error: `no operation ${message.method} ${message.url}` });
    return;
  }
  try {
    const result = await runOperation(context, name, await readBody(message));
    send(response, 200, { result });
  } catch (error) {
    if (error instanceof OperationInputError) {
      send(response, 400, { error: error.message });
      return;
    }
    log.warn({ err: error, operation: name }, 'operator operation failed');
    send(response, 422, { error: (error as Error).message ?? String(error) });
  }
}

/** Serves the operations for `context` and advertises the socket in the data directory. */
export async function startOperatorChannel(
  context: OperatorContext,
  log: OperatorLog,
): Promise<OperatorChannel> {
  const directory = mkdtempSync(join(tmpdir(), 'dw-op-'));
  const socketPath = join(directory, 'operator.sock');
  const server = createServer((message, response) => {
    handle(context, log, message, response).catch((error) => {
      log.error({ err: error }, 'operator channel failed');
      if (!response.headersSent) send(response, 500, { error: 'operator channel failed' });
    });
  });
  // An import of a whole feed export takes minutes: no time limit on the answer.
  server.requestTimeout = 0;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, resolve);
  });
  chmodSync(socketPath, 0o600);
  const recordFile = join(context.dataDir, OPERATOR_RECORD);
  const record = JSON.stringify({ pid: process.pid, socket: socketPath } satisfies OperatorRecord);
  const temporary = `${recordFile}.${process.pid}.tmp`;
  writeFileSync(temporary, record, { mode: 0o600 });
  renameSync(temporary, recordFile);
  return {
    socketPath,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      try {
        if (readFileSync(recordFile, 'utf8') === record) unlinkSync(recordFile);
      } catch {
        // already gone
      }
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** The operation failed in the owner (its message is the owner's, one line). */
export class OperatorError extends Error {}

export interface OwnerConnection {
  pid: number;
  call: <N extends OperationName>(name: N, input: unknown) => Promise<OperationResult<N>>;
}

function readRecord(dataDir: string): OperatorRecord | null {
  try {
    const value = JSON.parse(readFileSync(join(dataDir, OPERATOR_RECORD), 'utf8'));
    return typeof value?.pid === 'number' && typeof value?.socket === 'string' ? value : null;
  } catch {
    return null;
  }
}

function post(
  socketPath: string,
  path: string,
  body: unknown,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      { socketPath, path, method: 'POST', headers: { 'content-type': 'application/json' } },
      (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('end', () =>
          resolve({
            status: incoming.statusCode ?? 0,
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        incoming.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(JSON.stringify(body));
  });
}

/** Operations sent to the owner `pid` over `socketPath`. */
export function ownerConnection(pid: number, socketPath: string): OwnerConnection {
  return {
    pid,
    call: async (name, input) => {
      const answer = await post(socketPath, `/operations/${name}`, input);
      let parsed: { result?: unknown; error?: string };
      try {
        parsed = JSON.parse(answer.text);
      } catch {
        throw new OperatorError(`the service (pid ${pid}) answered ${answer.status} without JSON`);
      }
      if (answer.status !== 200) {
        const problem = parsed.error ?? `status ${answer.status}`;
        throw answer.status === 400 ? new OperationInputError(problem) : new OperatorError(problem);
      }
      return parsed.result as OperationResult<typeof name>;
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The running owner of `dataDir`, ready to take operations; null when no process owns it. An
 * owner that is still starting (its first start creates the database) is waited for up to
 * `waitMs`, with `onWait` called once.
 */
export async function findOwner(
  dataDir: string,
  options: { waitMs: number; onWait?: (pid: number) => void },
): Promise<OwnerConnection | null> {
  const until = Date.now() + options.waitMs;
  let waited = false;
  for (;;) {
    const pid = runningOwner(dataDir);
    if (pid === null) return null;
    const record = readRecord(dataDir);
    if (record?.pid === pid) return ownerConnection(pid, record.socket);
    if (Date.now() > until) {
      throw new Error(
        `The data directory ${dataDir} is in use by process ${pid}, which offers no operator channel (still starting, or not a Driftwatch service of this version).`,
      );
    }
    if (!waited) options.onWait?.(pid);
    waited = true;
    await sleep(250);
  }
}
