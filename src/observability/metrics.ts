import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The service's Prometheus metrics (docs/operations.md#metrics). A lower layer: it knows no
 * domain. The composition root feeds it through the observer functions below and hands it the
 * pools and the queue reader to sample at scrape time. Every label has a bounded set of values:
 * route patterns (never raw URLs), status codes, queue names, ecosystem ids, outcome words.
 */

/** What a pool exposes (pg.Pool has these). */
export interface PoolCounts {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}

/** One queue's jobs as the queue reader sees them at scrape time. */
export interface QueueSample {
  queue: string;
  waiting: number;
  active: number;
  /** Age of the oldest waiting job in seconds; 0 when none waits. */
  oldestWaitingSeconds: number;
}

export interface MetricsOptions {
  /** Bound on reading the queues during one scrape (default 2000 ms). */
  queueReadTimeoutMs?: number;
  /** Node process metrics (memory, CPU, event loop); default true. */
  processMetrics?: boolean;
}

export interface Metrics {
  readonly contentType: string;
  /** The exposition text of every series, sampling pools and queues now. */
  render: () => Promise<string>;
  observeRequest: (request: {
    method: string;
    route: string;
    status: number;
    seconds: number;
  }) => void;
  rateLimited: (bucket: string) => void;
  scanFinished: (outcome: string, seconds: number) => void;
  enrichmentFinished: (job: string, outcomes: Record<string, number>, seconds: number) => void;
  registryFetched: (ecosystem: string, outcome: string, seconds: number) => void;
  feedFetched: (feed: string, outcome: string, seconds: number) => void;
  jobFinished: (queue: string, outcome: 'completed' | 'failed', seconds: number) => void;
  watchPool: (name: string, pool: PoolCounts) => void;
  watchQueues: (read: () => Promise<QueueSample[]>) => void;
}

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const WORK_BUCKETS = [0.1, 0.5, 1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600];
const FETCH_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** Rejects after `ms`; the timer never keeps the process alive. */
function bounded<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    timer.unref();
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

type Registers = Registry[];

/** Requests and rate-limit refusals, labelled by route pattern. */
function httpSeries(registers: Registers) {
  const labelNames = ['method', 'route', 'status'] as const;
  return {
    requests: new Counter({
      name: 'driftwatch_http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status code',
      labelNames,
      registers,
    }),
    requestSeconds: new Histogram({
      name: 'driftwatch_http_request_duration_seconds',
      help: 'Time from receiving a request to sending its response, by method, route pattern and status',
      labelNames,
      buckets: HTTP_BUCKETS,
      registers,
    }),
    rateLimited: new Counter({
      name: 'driftwatch_rate_limit_rejections_total',
      help: 'Requests refused with 429, by the kind of bucket that refused them (ip, token, tenant)',
      labelNames: ['bucket'] as const,
      registers,
    }),
  };
}

/** Background work: scans, jobs, enrichment, registry and feed fetches. */
function workSeries(registers: Registers) {
  const histogram = <L extends string>(
    name: string,
    help: string,
    labelNames: readonly L[],
    buckets = WORK_BUCKETS,
  ) => new Histogram<L>({ name, help, labelNames, buckets, registers });
  return {
    scanSeconds: histogram(
      'driftwatch_scan_duration_seconds',
      'Scan runs from claim to their final state, by outcome (completed, failed, cancelled)',
      ['outcome'],
    ),
    jobSeconds: histogram(
      'driftwatch_job_duration_seconds',
      'Background job handlers, by queue and outcome (completed, failed)',
      ['queue', 'outcome'],
    ),
    enrichmentSeconds: histogram(
      'driftwatch_enrichment_duration_seconds',
      'Package-enrichment passes (job: enrich or refresh)',
      ['job'],
    ),
    enrichedPackages: new Counter({
      name: 'driftwatch_enrichment_packages_total',
      help: 'Packages an enrichment pass handled, by job and outcome',
      labelNames: ['job', 'outcome'] as const,
      registers,
    }),
    registryFetches: histogram(
      'driftwatch_registry_fetch_duration_seconds',
      'Package-metadata requests to a registry, by ecosystem and outcome',
      ['ecosystem', 'outcome'],
      FETCH_BUCKETS,
    ),
    feedFetches: histogram(
      'driftwatch_feed_fetch_duration_seconds',
      'Advisory feed syncs, by feed and outcome (imported, not_modified, failed)',
      ['feed', 'outcome'],
    ),
  };
}

/** Pool gauges, read from each watched pool's counters at scrape time. */
function poolSeries(registers: Registers, pools: ReadonlyMap<string, PoolCounts>): void {
  const gauge = (name: string, help: string, read: (pool: PoolCounts) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ['pool'] as const,
      registers,
      collect() {
        this.reset();
        for (const [pool, counts] of pools) this.set({ pool }, read(counts));
      },
    });
  gauge(
    'driftwatch_db_pool_connections',
    'Open connections of each database pool (main, read, jobs)',
    (pool) => pool.totalCount,
  );
  gauge(
    'driftwatch_db_pool_idle_connections',
    'Open connections of each pool that are idle',
    (pool) => pool.idleCount,
  );
  gauge(
    'driftwatch_db_pool_waiting_clients',
    'Checkouts waiting for a connection of each pool',
    (pool) => pool.waitingCount,
  );
}

/**
 * Queue gauges. They are collected concurrently within one scrape and share one bounded read;
 * a read that fails or overruns leaves the queue series out and `read_ok` at 0.
 */
function queueSeries(
  registers: Registers,
  source: () => (() => Promise<QueueSample[]>) | null,
  timeoutMs: number,
): void {
  let sampling: Promise<QueueSample[] | null> | null = null;
  const sampleQueues = () => {
    const read = source();
    if (!read) return Promise.resolve(null);
    sampling ??= bounded(read(), timeoutMs)
      .catch(() => null)
      .finally(() => {
        setImmediate(() => {
          sampling = null;
        });
      });
    return sampling;
  };
  new Gauge({
    name: 'driftwatch_job_queue_read_ok',
    help: `1 when the job queues could be read within ${timeoutMs} ms at this scrape, else 0`,
    registers,
    async collect() {
      this.set((await sampleQueues()) ? 1 : 0);
    },
  });
  const gauge = (name: string, help: string, read: (sample: QueueSample) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ['queue'] as const,
      registers,
      async collect() {
        const samples = await sampleQueues();
        this.reset();
        for (const sample of samples ?? []) this.set({ queue: sample.queue }, read(sample));
      },
    });
  gauge(
    'driftwatch_job_queue_waiting',
    'Jobs waiting in each queue (created or waiting for a retry)',
    (sample) => sample.waiting,
  );
  gauge('driftwatch_job_queue_active', 'Jobs running from each queue', (s) => s.active);
  gauge(
    'driftwatch_job_queue_oldest_waiting_seconds',
    'Age of the oldest waiting job of each queue (0 when none waits)',
    (sample) => sample.oldestWaitingSeconds,
  );
}

export function createMetrics(options: MetricsOptions = {}): Metrics {
  // One registry per service instance: tests run several apps in one process.
  const registry = new Registry();
  if (options.processMetrics !== false) collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const http = httpSeries(registers);
  const work = workSeries(registers);
  const pools = new Map<string, PoolCounts>();
  poolSeries(registers, pools);
  let readQueues: (() => Promise<QueueSample[]>) | null = null;
  queueSeries(registers, () => readQueues, options.queueReadTimeoutMs ?? 2000);

  return {
    contentType: registry.contentType,
    render: () => registry.metrics(),
    observeRequest({ method, route, status, seconds }) {
      const labels = {
        method: METHODS.has(method) ? method : 'OTHER',
        route,
        status: String(status),
      };
      http.requests.inc(labels);
      http.requestSeconds.observe(labels, seconds);
    },
    rateLimited: (bucket) => http.rateLimited.inc({ bucket }),
    scanFinished: (outcome, seconds) => work.scanSeconds.observe({ outcome }, seconds),
    enrichmentFinished(job, outcomes, seconds) {
      work.enrichmentSeconds.observe({ job }, seconds);
      for (const [outcome, count] of Object.entries(outcomes)) {
        if (count > 0) work.enrichedPackages.inc({ job, outcome }, count);
      }
    },
    registryFetched: (ecosystem, outcome, seconds) =>
      work.registryFetches.observe({ ecosystem, outcome }, seconds),
    feedFetched: (feed, outcome, seconds) => work.feedFetches.observe({ feed, outcome }, seconds),
    jobFinished: (queue, outcome, seconds) => work.jobSeconds.observe({ queue, outcome }, seconds),
    watchPool: (name, pool) => {
      pools.set(name, pool);
    },
    watchQueues: (read) => {
      readQueues = read;
    },
  };
}
