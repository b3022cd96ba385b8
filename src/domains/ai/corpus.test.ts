import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORPUS, type CorpusEntry } from '../../../test/support/questions-corpus';
import {
  buildQuestionFixture,
  NOW,
  type QuestionFixture,
  writeActivity,
} from '../../../test/support/questions-fixture';
import { createTestApp, type TestApp, type TestTenant } from '../../../test/support/test-app';
import { ProblemError } from '../../core/problem';
import { withTenant } from '../../db/tenant-scope';
import { askQuestion } from './service';

/** The corpus against the fixture tenant (docs/questions.md#proof), accuracy printed. */
describe('question corpus', () => {
  let t: TestApp;
  let a: TestTenant;
  let b: TestTenant;
  let fixture: QuestionFixture;

  beforeAll(async () => {
    t = await createTestApp();
    a = await t.createTenant('enterprise', 'A');
    b = await t.createTenant('enterprise', 'B');
    fixture = await buildQuestionFixture(t, a, b);
    await writeActivity(t, a.tenantId, fixture);
  });
  afterAll(() => t.close());

  async function check(entry: CorpusEntry): Promise<string | null> {
    try {
      const outcome = await askQuestion(
        { inTenant: (work) => withTenant(t.database, a.tenantId, work), plan: 'enterprise' },
        { question: entry.question, timeZone: entry.timeZone },
        () => {},
        NOW,
      );
      const { result } = outcome;
      const ids = JSON.stringify(result);
      if (ids.includes(fixture.otherWeb)) return "another tenant's repository appears";
      if (result.kind === 'clarification') {
        return entry.expect === 'clarification' ? null : `asked back (${result.answer})`;
      }
      if (outcome.intent.name !== entry.expect) return `placed in ${outcome.intent.name}`;
      if (entry.rows !== undefined && result.rows.length !== entry.rows) {
        return `${result.rows.length} rows, not ${entry.rows}: ${result.answer}`;
      }
      for (const [key, value] of Object.entries(entry.first ?? {})) {
        if (result.rows[0]?.[key] !== value)
          return `first row ${key}=${String(result.rows[0]?.[key])}`;
      }
      if (entry.includes && !result.answer.includes(entry.includes))
        return `answer: ${result.answer}`;
      if (
        result.rows.length > 0 &&
        result.citations.length === 0 &&
        !/^counts|reachability|quantum/.test(outcome.intent.name)
      ) {
        return 'rows without citations';
      }
      return null;
    } catch (error) {
      if (error instanceof ProblemError && error.status === 422) {
        return entry.expect === 'refused' ? null : `refused: ${JSON.stringify(error.errors)}`;
      }
      throw error;
    }
  }

  it('places and answers every question of the corpus', async () => {
    const failures: string[] = [];
    for (const entry of CORPUS) {
      const failure = await check(entry);
      if (failure) failures.push(`${entry.question} → ${failure}`);
    }
    const right = CORPUS.length - failures.length;
    console.info(
      `question corpus: ${right}/${CORPUS.length} right (${((100 * right) / CORPUS.length).toFixed(1)}%)`,
    );
    expect(failures).toEqual([]);
  });

  it('counts at least 120 questions, 30 of them refused or asked back', () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(120);
    const other = CORPUS.filter((e) => e.expect === 'refused' || e.expect === 'clarification');
    expect(other.length).toBeGreaterThanOrEqual(30);
  });

  it("shows tenant B none of A's operational rows (CRA, TLS, alerts, drift, scans)", async () => {
    const questions = [
      'Which CRA findings are open?',
      'Which CRA products do we have?',
      'Are our live endpoints quantum ready?',
      'Which certificates expire in the next 30 days?',
      'Which alerts are open?',
      'Which SBOM exports have we made?',
      'Which packages do we watch?',
      'Which deprecated packages are we using?',
      'Which dependencies are a major version behind?',
    ];
    for (const question of questions) {
      const outcome = await askQuestion(
        { inTenant: (work) => withTenant(t.database, b.tenantId, work), plan: 'enterprise' },
        { question },
        () => {},
        NOW,
      );
      expect(outcome.result.kind, question).toBe('answer');
      expect(outcome.result.kind === 'answer' && outcome.result.rows, question).toEqual([]);
    }
    // B's own rows only: its repository never scanned, its own new dependencies and exposures.
    for (const question of [
      'Which repositories were never scanned?',
      'What changed since 2026-01-01?',
    ]) {
      const outcome = await askQuestion(
        { inTenant: (work) => withTenant(t.database, b.tenantId, work), plan: 'enterprise' },
        { question },
        () => {},
        NOW,
      );
      const text = JSON.stringify(outcome.result);
      expect(text, question).toContain(fixture.otherWeb);
      for (const id of Object.values(fixture.repositories)) expect(text).not.toContain(id);
      for (const id of Object.values(fixture.exposures)) expect(text).not.toContain(id);
    }
  });

  it("never shows tenant B's data in B's own answers either way round", async () => {
    const outcome = await askQuestion(
      { inTenant: (work) => withTenant(t.database, b.tenantId, work), plan: 'enterprise' },
      { question: 'Which repositories use lodash?' },
      () => {},
      NOW,
    );
    expect(outcome.result.kind).toBe('answer');
    const text = JSON.stringify(outcome.result);
    for (const id of Object.values(fixture.repositories)) expect(text).not.toContain(id);
    expect(text).toContain(fixture.otherWeb);
  });
});
