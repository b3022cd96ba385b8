import { type Static, Type } from 'typebox';

/** Field path → messages, e.g. `repositories[0].url` → ["must be an https URL"]. */
export type FieldErrors = Record<string, string[]>;

export const ProblemSchema = Type.Object(
  {
    type: Type.Union([Type.String(), Type.Null()]),
    title: Type.Union([Type.String(), Type.Null()]),
    status: Type.Union([Type.Integer(), Type.Null()]),
    detail: Type.Union([Type.String(), Type.Null()]),
    instance: Type.Union([Type.String(), Type.Null()]),
    correlationId: Type.Union([Type.String(), Type.Null()]),
    errors: Type.Optional(
      Type.Union([Type.Record(Type.String(), Type.Array(Type.String())), Type.Null()]),
    ),
  },
  { $id: 'Problem', description: 'RFC 9457 problem details (application/problem+json)' },
);
export type Problem = Static<typeof ProblemSchema>;

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

export function titleFor(status: number): string {
  return TITLES[status] ?? 'Error';
}

const PROBLEM_TYPE_BASE = 'https://driftwatch.dev/problems/';

/**
 * The problem `type`: one stable URI per class of problem, named by its status
 * (docs/design.md#http-rules). Clients branch on it (or the status) and on the keys of
 * `errors`, never on `title` or `detail`, whose wording may change.
 */
export function problemTypeFor(status: number): string {
  return `${PROBLEM_TYPE_BASE}${status}`;
}

/**
 * The one error type that carries an HTTP status. Domain code throws these (through the factories
 * below); the single error handler renders them as problem details.
 */
export class ProblemError extends Error {
  readonly status: number;
  readonly errors: FieldErrors | undefined;
  readonly headers: Record<string, string>;

  constructor(
    status: number,
    detail: string,
    options: { errors?: FieldErrors; headers?: Record<string, string> } = {},
  ) {
    super(detail);
    this.name = 'ProblemError';
    this.status = status;
    this.errors = options.errors;
    this.headers = options.headers ?? {};
  }
}

export const badRequest = (detail: string, errors?: FieldErrors) =>
  new ProblemError(400, detail, { errors });
export const unauthorized = (detail = 'A valid bearer token is required.') =>
  new ProblemError(401, detail, { headers: { 'WWW-Authenticate': 'Bearer' } });
export const forbidden = (detail: string) => new ProblemError(403, detail);
export const notFound = (what = 'The resource') => new ProblemError(404, `${what} was not found.`);
export const conflict = (detail: string) => new ProblemError(409, detail);
export const unprocessable = (detail: string, errors?: FieldErrors) =>
  new ProblemError(422, detail, { errors });
export const badGateway = (detail: string) => new ProblemError(502, detail);
export const unavailable = (detail: string) => new ProblemError(503, detail);

/** Collects field errors and throws one problem with all of them. */
export class FieldErrorCollector {
  // No prototype: a field named `constructor` or `__proto__` is a key like any other.
  readonly errors: FieldErrors = Object.create(null);
  add(field: string, message: string): void {
    if (!this.errors[field]) this.errors[field] = [];
    this.errors[field].push(message);
  }
  get empty(): boolean {
    return Object.keys(this.errors).length === 0;
  }
  throwIfAny(status: 400 | 422, detail = 'The request has invalid fields.'): void {
    if (!this.empty) throw new ProblemError(status, detail, { errors: this.errors });
  }
}
