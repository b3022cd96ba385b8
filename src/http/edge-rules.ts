import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FieldErrors } from '../core/problem';
import { badRequest } from '../core/problem';
import { unstorableReason } from '../core/storable-text';

/**
 * Rules applied at the HTTP edge to every route, before any handler sees the request
 * (docs/http-rules.md): text PostgreSQL cannot store is refused.
 */

function joinPath(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  return parent === '' ? key : `${parent}.${key}`;
}

function add(errors: FieldErrors, field: string, message: string): void {
  const list = errors[field] ?? [];
  if (!list.includes(message)) list.push(message);
  errors[field] = list;
}

/**
 * Field errors for every unstorable string (values and object keys) in a parsed request part,
 * keyed by field path as the schema validation errors are. Iterative, so a deeply nested body
 * cannot exhaust the stack (how deep a document may nest is the route's rule, e.g. SBOM import).
 */
export function textErrorsIn(value: unknown, root: string): FieldErrors {
  // No prototype: a field named `__proto__` is a key like any other.
  const errors: FieldErrors = Object.create(null);
  const stack: { value: unknown; path: string }[] = [{ value, path: '' }];
  while (stack.length > 0) {
    const item = stack.pop();
    if (!item) break;
    const field = item.path === '' ? root : item.path;
    if (typeof item.value === 'string') {
      const reason = unstorableReason(item.value);
      if (reason) add(errors, field, reason);
      continue;
    }
    if (typeof item.value !== 'object' || item.value === null) continue;
    // Raw bodies (webhooks read theirs as bytes) are not text: their routes check what they
    // store after verifying the sender. Walking a Buffer would visit every byte.
    if (ArrayBuffer.isView(item.value) || item.value instanceof ArrayBuffer) continue;
    const entries: [string | number, unknown][] = Array.isArray(item.value)
      ? item.value.map((child, index) => [index, child])
      : Object.entries(item.value);
    for (const [key, child] of entries) {
      const path = joinPath(item.path, key);
      if (typeof key === 'string') {
        const reason = unstorableReason(key);
        if (reason) add(errors, path, `name ${reason}`);
      }
      stack.push({ value: child, path });
    }
  }
  return errors;
}

/** Text errors of every request part: path parameters, query, headers and body. */
export function requestTextErrors(request: FastifyRequest): FieldErrors {
  return Object.assign(
    Object.create(null),
    textErrorsIn(request.params, 'path'),
    textErrorsIn(request.query, 'query'),
    textErrorsIn(request.headers, 'headers'),
    textErrorsIn(request.body, 'body'),
  );
}

/**
 * Registers the text rule for every route. preValidation runs after the pipeline's role and
 * plan checks (registered earlier) and before schema validation, so no handler, audit entry or
 * query ever receives such text.
 */
export function registerEdgeRules(app: FastifyInstance): void {
  app.addHook('preValidation', async (request: FastifyRequest, _reply: FastifyReply) => {
    const errors = requestTextErrors(request);
    if (Object.keys(errors).length > 0) {
      throw badRequest('The request contains text that cannot be stored.', errors);
    }
  });
}
