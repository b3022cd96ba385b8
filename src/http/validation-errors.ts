import type { FastifySchemaValidationError } from 'fastify';
import type { FieldErrors } from '../core/problem';

/** `/repositories/0/url` → `repositories[0].url`, the path style of the specification. */
export function toFieldPath(instancePath: string, extra?: string): string {
  const parts = instancePath.split('/').filter((part) => part !== '');
  if (extra) parts.push(extra);
  let path = '';
  for (const raw of parts) {
    const part = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (/^\d+$/.test(part)) path += `[${part}]`;
    else path += path === '' ? part : `.${part}`;
  }
  return path;
}

function messageFor(error: FastifySchemaValidationError): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return 'is required';
    case 'format':
      return `must be a valid ${String(params.format)}`;
    case 'enum':
      return `must be one of ${(params.allowedValues as unknown[]).join(', ')}`;
    case 'type':
      return `must be ${String(params.type).replace(',', ' or ')}`;
    default:
      return error.message ?? 'is invalid';
  }
}

/** Turns Ajv errors into the `errors` map of a problem body. */
export function fieldErrorsFrom(
  validation: FastifySchemaValidationError[],
  context: string | undefined,
): FieldErrors {
  // No prototype: a field named `__proto__` is a key like any other.
  const errors: FieldErrors = Object.create(null);
  for (const error of validation) {
    const params = error.params as Record<string, unknown>;
    const extra =
      error.keyword === 'required' && typeof params.missingProperty === 'string'
        ? params.missingProperty
        : undefined;
    let field = toFieldPath(error.instancePath, extra);
    if (field === '') field = context === 'body' ? 'body' : (context ?? 'request');
    const message = messageFor(error);
    const list = errors[field] ?? [];
    if (!list.includes(message)) list.push(message);
    errors[field] = list;
  }
  return errors;
}
