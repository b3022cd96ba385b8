import { describe, expect, it } from 'vitest';
import { compileCondition } from '../evaluation/cel';

const readsOf = (condition: string) => {
  const compiled = compileCondition(condition);
  if (!compiled.ok) throw new Error(compiled.errors.join('; '));
  return compiled.condition.reads;
};

describe('the fact groups a condition reads', () => {
  it('finds each group the condition names, in the definition order', () => {
    expect(readsOf('dependency.direct && drift.majorsBehind >= 2')).toEqual({
      groups: ['dependency', 'drift'],
      timeDependent: false,
    });
    expect(
      readsOf('vulnerabilities.items.exists(v, v.severity == "critical") && licence.known'),
    ).toEqual({ groups: ['vulnerabilities', 'licence'], timeDependent: false });
    expect(readsOf('"popularity" in health.signals && health.signals.popularity < 0.1')).toEqual({
      groups: ['health'],
      timeDependent: false,
    });
  });

  it('knows a condition on the release age changes by the day, and one on `known` does not', () => {
    expect(readsOf('release.known && release.ageDays < 3').timeDependent).toBe(true);
    expect(readsOf('release.known').timeDependent).toBe(false);
    expect(readsOf('has(release.known) && repository.name == "x"')).toEqual({
      groups: ['release', 'repository'],
      timeDependent: false,
    });
  });

  it('a string that names a group is not a read', () => {
    expect(readsOf('dependency.name == "vulnerabilities"').groups).toEqual(['dependency']);
  });
});
