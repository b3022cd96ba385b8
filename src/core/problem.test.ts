import { describe, expect, it } from 'vitest';
import {
  badRequest,
  conflict,
  FieldErrorCollector,
  forbidden,
  notFound,
  ProblemError,
  problemTypeFor,
  titleFor,
  unauthorized,
  unprocessable,
} from './problem';

describe('problems', () => {
  it('have one stable type URI per class (status), independent of the wording', () => {
    expect(problemTypeFor(404)).toBe('https://driftwatch.dev/problems/404');
    expect(problemTypeFor(422)).toBe('https://driftwatch.dev/problems/422');
    expect(problemTypeFor(notFound('The repository').status)).toBe(problemTypeFor(404));
  });

  it('carry the status, field errors and headers their factory gives them', () => {
    expect(notFound('The scan')).toMatchObject({ status: 404, message: 'The scan was not found.' });
    expect(unauthorized().headers).toEqual({ 'WWW-Authenticate': 'Bearer' });
    expect(badRequest('bad', { take: ['must be ≥ 1'] }).errors).toEqual({ take: ['must be ≥ 1'] });
    expect(unprocessable('rule').status).toBe(422);
    expect(conflict('busy').status).toBe(409);
    expect(forbidden('no').status).toBe(403);
    expect(titleFor(429)).toBe('Too Many Requests');
    expect(titleFor(418)).toBe('Error');
  });

  it('collect field errors into one problem, or none', () => {
    const fields = new FieldErrorCollector();
    fields.throwIfAny(400);
    fields.add('name', 'is required');
    fields.add('name', 'is too long');
    fields.add('constructor', 'is a field like any other');
    let thrown: unknown;
    try {
      fields.throwIfAny(422);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ProblemError);
    expect(thrown).toMatchObject({
      status: 422,
      errors: { name: ['is required', 'is too long'], constructor: ['is a field like any other'] },
    });
  });
});
