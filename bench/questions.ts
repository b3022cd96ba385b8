/**
 * Answer time of POST /api/v1/ai/query's engine on the corpus fixture (docs/questions.md#bench):
 * every answered question of the corpus, asked ROUNDS times in the tenant's scoped transaction
 * (parse, place, the intent's reads), without a model. Target: p99 under 100 ms.
 *   npx tsx bench/questions.ts
 */
import { performance } from 'node:perf_hooks';
import { withTenant } from '../src/db/tenant-scope';
import { askQuestion } from '../src/domains/ai/service';
import { CORPUS } from '../test/support/questions-corpus';
import { buildQuestionFixture, NOW, writeActivity } from '../test/support/questions-fixture';
import { createTestApp } from '../test/support/test-app';

const ROUNDS = Number(process.env.ROUNDS ?? 5);

async function main() {
  const t = await createTestApp();
  const a = await t.createTenant('enterprise', 'A');
  const b = await t.createTenant('enterprise', 'B');
  const fixture = await buildQuestionFixture(t, a, b);
  await writeActivity(t, a.tenantId, fixture);
  const questions = CORPUS.filter((e) => e.expect !== 'refused');
  const times: number[] = [];
  const byIntent = new Map<string, number[]>();
  for (let round = 0; round < ROUNDS; round++) {
    for (const entry of questions) {
      const started = performance.now();
      await askQuestion(
        { inTenant: (work) => withTenant(t.database, a.tenantId, work), plan: 'enterprise' },
        { question: entry.question, timeZone: entry.timeZone },
        () => {},
        NOW,
      );
      const took = performance.now() - started;
      times.push(took);
      byIntent.set(entry.expect, [...(byIntent.get(entry.expect) ?? []), took]);
    }
  }
  times.sort((x, y) => x - y);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0;
  console.log(
    `questions: ${times.length} answers, p50 ${at(0.5).toFixed(1)} ms, p95 ${at(0.95).toFixed(1)} ms, p99 ${at(0.99).toFixed(1)} ms, max ${at(1).toFixed(1)} ms (${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`,
  );
  // The slowest intents by their own worst answer: where a p99 over target would come from.
  const slowest = [...byIntent.entries()]
    .map(([intent, list]) => ({ intent, max: Math.max(...list), n: list.length }))
    .sort((x, y) => y.max - x.max)
    .slice(0, 5);
  console.log(
    `slowest intents (max): ${slowest.map((s) => `${s.intent} ${s.max.toFixed(1)} ms`).join(', ')}`,
  );
  await t.close();
}

await main();
