/**
 * Error bodies are problem documents (api-spec "Problem details"): the UI shows their title,
 * detail and correlation id. Anything else (a proxy's HTML page, a network failure) becomes a
 * problem too, so screens handle one shape.
 */
export interface ApiProblem {
  status: number;
  title: string;
  detail: string | null;
  correlationId: string | null;
  /** Validation failures: field name to messages. */
  errors: Record<string, string[]> | null;
}

export class ApiError extends Error {
  readonly problem: ApiProblem;
  constructor(problem: ApiProblem) {
    super(problem.detail ? `${problem.title}: ${problem.detail}` : problem.title);
    this.name = 'ApiError';
    this.problem = problem;
  }
}

const text = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value : null;

function fieldErrors(value: unknown): Record<string, string[]> | null {
  if (typeof value !== 'object' || value === null) return null;
  const found: Record<string, string[]> = {};
  for (const [field, messages] of Object.entries(value)) {
    if (Array.isArray(messages)) found[field] = messages.filter((m) => typeof m === 'string');
  }
  return Object.keys(found).length > 0 ? found : null;
}

/** The problem of a failed response; `body` is what openapi-fetch parsed (or text, or nothing). */
export function problemOf(response: Response, body: unknown): ApiProblem {
  const fields =
    typeof body === 'object' && body !== null ? Object.fromEntries(Object.entries(body)) : {};
  return {
    status: response.status,
    title: text(fields.title) ?? (response.statusText || `HTTP ${response.status}`),
    detail: text(fields.detail),
    correlationId: text(fields.correlationId) ?? response.headers.get('x-correlation-id'),
    errors: fieldErrors(fields.errors),
  };
}

/** Any thrown value as a problem: network failures have status 0. */
export function asProblem(error: unknown): ApiProblem {
  if (error instanceof ApiError) return error.problem;
  const detail = error instanceof Error ? error.message : String(error);
  return {
    status: 0,
    title: 'The service could not be reached',
    detail,
    correlationId: null,
    errors: null,
  };
}
