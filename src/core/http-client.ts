/**
 * What the service's HTTP clients share (the package-registry clients, the source-control
 * provider clients, the advisory sync): reading a response body whole under a size cap, each
 * client saying what an over-large or broken body means to it, and joining a base URL and a path.
 */

/** Joins a base URL (which may carry a path such as /api/v4) and a path, one slash between. */
export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}

/** The body passed the cap: by its Content-Length (`declared`) or while it streamed (null). */
export class BodyTooLargeError extends Error {
  constructor(
    readonly limit: number,
    readonly declared: number | null,
  ) {
    super(
      declared === null
        ? `the body is over the ${limit}-byte limit`
        : `the body is ${declared} bytes, over the ${limit}-byte limit`,
    );
    this.name = 'BodyTooLargeError';
  }
}

/** What the reader needs of a fetch Response (undici's or the global one). */
export interface StreamedResponse {
  headers: { get(name: string): string | null };
  body: (AsyncIterable<Uint8Array> & { cancel(reason?: unknown): Promise<void> }) | null;
}

/**
 * The body's bytes, refusing more than `limit`: at once when Content-Length announces more, else
 * as soon as the streamed bytes pass it; either way the rest is cancelled, so the connection is
 * not held for data nobody reads. A failure of the stream itself (the connection cut mid-body)
 * propagates as it is.
 */
export async function readCappedBody(
  response: StreamedResponse,
  limit: number,
): Promise<Uint8Array> {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (Number.isFinite(declared) && declared > limit) {
    await response.body?.cancel().catch(() => {});
    throw new BodyTooLargeError(limit, declared);
  }
  if (response.body === null) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let total = 0;
  // Leaving the loop (the throw below, or a failed read) cancels the stream.
  for await (const chunk of response.body) {
    total += chunk.byteLength;
    if (total > limit) throw new BodyTooLargeError(limit, null);
    chunks.push(chunk);
  }
  const joined = Buffer.concat(chunks, total);
  return new Uint8Array(joined.buffer, joined.byteOffset, joined.byteLength);
}

/** `readCappedBody` decoded as UTF-8 (an invalid sequence becomes U+FFFD). */
export async function readCappedText(response: StreamedResponse, limit: number): Promise<string> {
  const bytes = await readCappedBody(response, limit);
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
}
