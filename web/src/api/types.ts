import type { paths } from './schema';

/**
 * The JSON body of a GET's 200 answer, straight from the generated `paths`:
 * `Ok<'/api/v1/repositories'>` is the repositories page. Screens name data types this way, so
 * a changed response schema fails the build where the screen uses it.
 */
export type Ok<P extends keyof paths> = paths[P] extends {
  get: { responses: { 200: { content: { 'application/json': infer Body } } } };
}
  ? Body
  : never;
