import { describe, expect, it } from 'vitest';
import { BodyTooLargeError, joinUrl, readCappedBody, readCappedText } from './http-client';

/** A response whose body streams `chunks`, with the Content-Length header given (or none). */
function responseOf(chunks: string[], contentLength: string | null = null) {
  const encoder = new TextEncoder();
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = chunks.shift();
      if (next === undefined) controller.close();
      else controller.enqueue(encoder.encode(next));
    },
    cancel() {
      cancelled = true;
    },
  });
  const headers = new Headers(contentLength === null ? {} : { 'content-length': contentLength });
  return { response: { headers, body }, cancelled: () => cancelled };
}

describe('readCappedBody', () => {
  it('reads a body of exactly the limit whole, chunk after chunk', async () => {
    const { response, cancelled } = responseOf(['{"a":', '"é"}'], '10');
    expect(await readCappedText(response, 10)).toBe('{"a":"é"}');
    expect(cancelled()).toBe(false);
  });

  it('refuses at once a body whose Content-Length is over the limit, and cancels it', async () => {
    const { response, cancelled } = responseOf(['x'.repeat(10)], '10');
    const error = await readCappedBody(response, 9).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BodyTooLargeError);
    expect(error).toMatchObject({ limit: 9, declared: 10 });
    expect(cancelled()).toBe(true);
  });

  it('refuses a body that streams past the limit without announcing its size', async () => {
    const { response, cancelled } = responseOf(['x'.repeat(6), 'x'.repeat(6), 'rest']);
    const error = await readCappedBody(response, 10).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'BodyTooLargeError', limit: 10, declared: null });
    expect(cancelled()).toBe(true);
  });

  it('gives no bytes for no body, and passes a broken stream on as it is', async () => {
    expect(await readCappedBody({ headers: new Headers(), body: null }, 10)).toEqual(
      new Uint8Array(),
    );
    const broken = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.error(new Error('socket hang up'));
      },
    });
    await expect(readCappedBody({ headers: new Headers(), body: broken }, 10)).rejects.toThrow(
      'socket hang up',
    );
  });
});

describe('joinUrl', () => {
  it.each([
    ['https://r.example/api/v4', 'projects', 'https://r.example/api/v4/projects'],
    ['https://r.example/api/v4/', '/projects', 'https://r.example/api/v4/projects'],
    ['https://r.example//', '//a/b', 'https://r.example/a/b'],
  ])('%s + %s = %s', (base, path, joined) => {
    expect(joinUrl(base, path)).toBe(joined);
  });
});
