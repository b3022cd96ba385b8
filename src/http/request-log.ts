import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';

/**
 * One log line per request, written when it completes: method, URL, status and time
 * (`GET /api/v1/scans 200 3.1 ms`), with the correlation id on the line. Fastify's default is two
 * lines (incoming, completed), which doubles the log for nothing the second line lacks.
 */
export class OneLinePerRequest extends LogController {
  constructor() {
    super({ requestIdLogLabel: 'correlationId' });
  }

  override incomingRequest(): void {}

  /** The completed line says 404 already. */
  override routeNotFound(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const ms = Math.round(reply.elapsedTime * 10) / 10;
    const line = `${request.method} ${request.url} ${reply.statusCode} ${ms} ms`;
    const details = {
      method: request.method,
      url: request.url,
      statusCode: reply.statusCode,
      responseTime: ms,
    };
    if (error) reply.log.error({ ...details, err: error }, line);
    else reply.log.info(details, line);
  }
}
