import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import { JITTER_RATIO, minimumSpanMs, retryDelayMs } from './schedule';

const HOUR = 3600_000;

describe('retry schedule', () => {
  const defaults = loadConfig({}).webhooks;

  it('spans more than 24 hours with the default settings, even with no jitter', () => {
    expect(minimumSpanMs(defaults)).toBeGreaterThan(24 * HOUR);
    expect(minimumSpanMs(defaults)).toBe(255 * 60_000 + 9 * 3 * HOUR);
  });

  it('doubles from the base up to the cap', () => {
    const none = () => 0;
    const waits = [1, 2, 3, 8, 9, 17].map((attempt) => retryDelayMs(defaults, attempt, none));
    expect(waits).toEqual([60_000, 120_000, 240_000, 128 * 60_000, 3 * HOUR, 3 * HOUR]);
  });

  it('adds at most a quarter of jitter, never less than the wait', () => {
    for (const attempt of [1, 5, 12]) {
      const base = retryDelayMs(defaults, attempt, () => 0);
      expect(retryDelayMs(defaults, attempt, () => 0.999_999)).toBeLessThanOrEqual(
        base * (1 + JITTER_RATIO),
      );
      const samples = Array.from({ length: 50 }, () => retryDelayMs(defaults, attempt));
      expect(Math.min(...samples)).toBeGreaterThanOrEqual(base);
      expect(new Set(samples).size).toBeGreaterThan(1);
    }
  });
});
