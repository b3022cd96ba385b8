/**
 * `isDependency` (src/ecosystems/dependency-list.ts, the rule every layer shares) spelled in SQL
 * over the columns of `repository_dependencies`, whose owner this domain is (./tables.ts): the
 * project's own package (scope `self`) and a Go module replaced by another module are stored
 * and matched, but never counted as dependencies. For `WHERE` clauses of the readers that count
 * (risk summary, drift, rollups, usage); counted-dependencies.test.ts checks it agrees with
 * `isDependency`.
 */
export const COUNTED_DEPENDENCY_SQL =
  "scope <> 'self' AND NOT (source->>'kind' = 'replaced' AND source->>'version' IS NOT NULL)";
