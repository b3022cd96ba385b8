import type { Redis } from 'ioredis';
import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
} from 'rate-limiter-flexible';

/**
 * Fixed one-minute windows that start at a key's first request (the Limits section). Several
 * buckets may apply to one request; the tightest wins. Counters live in memory for one process,
 * or in Redis when several processes serve the API.
 */
export interface Bucket {
  /** e.g. `token:<id>`, `tenant:<id>`, `ip:<address>` */
  key: string;
  limit: number;
}

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the deciding bucket's window resets. */
  resetSeconds: number;
  /** The deciding bucket's kind: the part of its key before `:` (token, tenant, ip). */
  kind?: string;
}

export interface RateLimitStore {
  check: (buckets: readonly Bucket[]) => Promise<RateLimitDecision>;
}

const WINDOW_SECONDS = 60;

export function createRateLimitStore(redis: Redis | null): RateLimitStore {
  const limiters = new Map<number, RateLimiterAbstract>();
  const limiterFor = (points: number): RateLimiterAbstract => {
    let limiter = limiters.get(points);
    if (!limiter) {
      const options = { points, duration: WINDOW_SECONDS, keyPrefix: `dw-rl-${points}` };
      limiter = redis
        ? new RateLimiterRedis({
            ...options,
            storeClient: redis,
            // If Redis is down, keep limiting in this process rather than failing requests.
            insuranceLimiter: new RateLimiterMemory(options),
          })
        : new RateLimiterMemory(options);
      limiters.set(points, limiter);
    }
    return limiter;
  };

  return {
    async check(buckets) {
      const outcomes = await Promise.all(
        buckets.map(async (bucket) => {
          try {
            const res = await limiterFor(bucket.limit).consume(bucket.key, 1);
            return { bucket, res, allowed: true };
          } catch (rejection) {
            if (rejection instanceof RateLimiterRes)
              return { bucket, res: rejection, allowed: false };
            throw rejection;
          }
        }),
      );
      const rejected = outcomes.filter((o) => !o.allowed);
      const pool = rejected.length > 0 ? rejected : outcomes;
      // Rejected: the bucket that frees up last decides. Allowed: the one with least headroom.
      let decisive = pool[0];
      for (const outcome of pool) {
        if (!decisive) break;
        if (rejected.length > 0) {
          if (outcome.res.msBeforeNext > decisive.res.msBeforeNext) decisive = outcome;
        } else if (outcome.res.remainingPoints < decisive.res.remainingPoints) {
          decisive = outcome;
        }
      }
      if (!decisive) return { allowed: true, limit: 0, remaining: 0, resetSeconds: 0 };
      return {
        allowed: rejected.length === 0,
        limit: decisive.bucket.limit,
        remaining: Math.max(0, decisive.res.remainingPoints),
        resetSeconds: Math.max(1, Math.ceil(decisive.res.msBeforeNext / 1000)),
        kind: decisive.bucket.key.split(':')[0],
      };
    },
  };
}

/** Paths the Limits section exempts from rate limiting, exactly as listed. */
export function isRateLimitExempt(path: string): boolean {
  return (
    path === '/api/v1/health' ||
    path === '/api/v1/version' ||
    path.startsWith('/api/v1/webhooks/') ||
    path.startsWith('/api/v1/status/') ||
    // The web app's content-hashed files: static, cached for a year, loaded a few per visit.
    path.startsWith('/assets/')
  );
}

export const RATE_LIMIT_HEADERS = [
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
  'Retry-After',
];
