import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  type FieldErrors,
  type Problem,
  ProblemError,
  problemTypeFor,
  titleFor,
} from '../core/problem';
import { DatabaseBusyError } from '../db/connection';
import { isConnectionLost } from '../db/errors';
import { fieldErrorsFrom } from './validation-errors';

export function sendProblem(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  detail: string,
  errors?: FieldErrors,
): FastifyReply {
  const body: Problem = {
    type: problemTypeFor(status),
    title: titleFor(status),
    status,
    detail,
    instance: request.url.split('?')[0] ?? request.url,
    correlationId: request.id,
    ...(errors ? { errors } : {}),
  };
  reply.header('X-Correlation-Id', request.id);
  return reply.code(status).type('application/problem+json').send(body);
}

/** A failure nobody anticipated: logged in full, answered with the correlation id only. */
export function sendUnexpected(
  request: FastifyRequest,
  reply: FastifyReply,
  error: unknown,
  what: string,
): FastifyReply {
  request.log.error({ err: error }, what);
  return sendProblem(
    request,
    reply,
    500,
    `An unexpected error occurred. Quote correlation id ${request.id} when reporting it.`,
  );
}

/** Maps framework errors (parsing, validation, limits) to the status the contract gives them. */
function classify(error: FastifyError, request: FastifyRequest): ProblemError | null {
  if (error instanceof ProblemError) return error;
  // Every pooled connection was busy for the whole acquire timeout: retrying later is safe.
  if (error instanceof DatabaseBusyError) {
    return new ProblemError(503, 'The service is busy. Retry the request shortly.', {
      headers: { 'Retry-After': String(error.retryAfterSeconds) },
    });
  }
  // A read whose database connection dropped (a replica stopped, a failover) is safe to retry;
  // a write's outcome is unknown, so it stays a 500 (verify state before retrying).
  if (isConnectionLost(error) && (request.method === 'GET' || request.method === 'HEAD')) {
    return new ProblemError(503, 'The database connection was lost. Retry the request.', {
      headers: { 'Retry-After': '1' },
    });
  }
  if (error.validation) {
    const status = request.routeOptions.config?.validationStatus ?? 400;
    return new ProblemError(status, 'The request has invalid fields.', {
      errors: fieldErrorsFrom(error.validation, error.validationContext),
    });
  }
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ProblemError(415, 'Request bodies must be sent as application/json.');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ProblemError(400, 'The Content-Length header does not match the body.');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ProblemError(413, 'The request body is larger than this endpoint accepts.');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ProblemError(400, 'The request body is empty but Content-Type is JSON.');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new ProblemError(400, 'The request body is not valid JSON.');
  }
  if (error instanceof SyntaxError || error.name === 'SyntaxError') {
    return new ProblemError(400, 'The request body is not valid JSON.');
  }
  const status = error.statusCode;
  if (status && status >= 400 && status < 500) {
    return new ProblemError(status, error.message);
  }
  return null;
}

/** The single place where errors become responses: every non-2xx body is a problem. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const problem = classify(error, request);
    if (problem) {
      for (const [name, value] of Object.entries(problem.headers)) reply.header(name, value);
      return sendProblem(request, reply, problem.status, problem.message, problem.errors);
    }
    return sendUnexpected(request, reply, error, 'unhandled error');
  });
}
