/**
 * Where the online commands (gate, status) find the service: --url, else DRIFTWATCH_URL, else
 * the address the service itself listens on by default (PORT, else 8080) on this machine, so
 * that the defaults of both sides meet.
 */
export function serviceUrl(env: NodeJS.ProcessEnv, explicit?: string): string {
  const configured = explicit ?? env.DRIFTWATCH_URL;
  if (configured) return configured.replace(/\/+$/, '');
  const port = Number(env.PORT);
  const listening = Number.isInteger(port) && port > 0 && port < 65536 ? port : 8080;
  return `http://127.0.0.1:${listening}`;
}

/** The innermost reason of a failed fetch ("fetch failed" alone says nothing). */
function reason(error: unknown): string {
  let current: unknown = error;
  while (current instanceof Error && current.cause instanceof Error) current = current.cause;
  const code = (current as NodeJS.ErrnoException | undefined)?.code;
  const message = current instanceof Error ? current.message : String(current);
  return code && !message.includes(code) ? `${code}: ${message}` : message;
}

/** A request that never got an answer: names the address, its reason, and how to change it. */
export class ServiceUnreachableError extends Error {
  constructor(url: string, error: unknown) {
    let origin = url;
    try {
      origin = new URL(url).origin;
    } catch {
      // not a URL: shown as given
    }
    super(
      `cannot reach the service at ${origin} (${reason(error)}); is it running? Set DRIFTWATCH_URL to its address`,
    );
  }
}
