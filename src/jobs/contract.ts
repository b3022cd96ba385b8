import type { Static, TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import {
  InvalidJobPayloadError,
  type JobDefinition,
  type JobEnvelope,
  type JobSendOptions,
  type SqlExecutor,
} from './queue';

export { InvalidJobPayloadError };

/**
 * A job's contract (docs/architecture.md#jobs-and-events): its name, the TypeBox schema of its
 * payload and how pg-boss runs it. The domain that handles the job declares it beside its
 * handler; anyone may enqueue it (`enqueue` in ./outbox.ts accepts only this payload's type), and
 * a claimed job's payload is checked against the schema before its handler runs.
 */
export interface JobContract<S extends TSchema = TSchema> {
  readonly name: string;
  readonly payload: S;
  /** Seconds an active job may run before pg-boss fails it over for a retry. */
  readonly expireInSeconds: number;
  readonly retryLimit: number;
  /** Cron expression (UTC) for scheduled system jobs (their payload is `{}`). */
  readonly schedule?: string;
  /** `short`: at most one waiting job per singleton key (see JobDefinition). */
  readonly policy?: 'short';
  /** Per-job send options read from the envelope: fetch order, coalescing key, delay. */
  readonly sendOptions?: (envelope: Omit<JobEnvelope<Static<S>>, 'version'>) => JobSendOptions;
  /**
   * Runs in the outbox relay's transaction as the job is queued, and returns the payload to
   * queue: what someone waits for (the CI gate waits for a policy evaluation) is recorded in
   * the commit that turns the outbox row into the job, so between the change and the job's end
   * there is always a row saying the work is pending.
   */
  readonly atRelay?: (
    envelope: Omit<JobEnvelope<Static<S>>, 'version'>,
    db: SqlExecutor,
  ) => Promise<Static<S>>;
  /**
   * The payloads that start this job (absent: every one), for a subscriber that needs only some
   * of an event's: an envelope it refuses is never sent, and one claimed anyway (sent before) is
   * passed over. A payload that does not match the schema is sent, and fails on its claim.
   */
  readonly accepts?: (data: Static<S>) => boolean;
}

/** The payload type a contract accepts. */
export type PayloadOf<C> = C extends JobContract<infer S> ? Static<S> : never;

type Checker = (value: unknown) => string[];

// Compiled on first use, once per contract: most processes never claim most jobs.
const checkers = new WeakMap<JobContract, Checker>();

function checkerOf(contract: JobContract): Checker {
  const known = checkers.get(contract);
  if (known) return known;
  const validator = Compile(contract.payload);
  const checker: Checker = (value) =>
    validator.Check(value)
      ? []
      : validator.Errors(value).map((error) => `${error.instancePath || '/'} ${error.message}`);
  checkers.set(contract, checker);
  return checker;
}

function isData<S extends TSchema>(contract: JobContract<S>, data: unknown): data is Static<S> {
  return checkerOf(contract)(data).length === 0;
}

/** Checks a claimed envelope against its contract; throws InvalidJobPayloadError when it fails. */
export function checkEnvelope<S extends TSchema>(
  contract: JobContract<S>,
  envelope: JobEnvelope<unknown>,
): JobEnvelope<Static<S>> {
  const problems: string[] = [];
  if (envelope === null || typeof envelope !== 'object')
    problems.push('the envelope is not an object');
  else {
    if (envelope.version !== 1)
      problems.push(`unknown envelope version ${String(envelope.version)}`);
    if (envelope.tenantId !== null && typeof envelope.tenantId !== 'string') {
      problems.push('tenantId is neither a string nor null');
    }
    if (envelope.correlationId != null && typeof envelope.correlationId !== 'string') {
      problems.push('correlationId is not a string');
    }
  }
  if (problems.length > 0) throw new InvalidJobPayloadError(contract.name, problems);
  const data = envelope.data;
  if (isData(contract, data)) return { ...envelope, data };
  throw new InvalidJobPayloadError(contract.name, checkerOf(contract)(envelope.data));
}

/** Declares a job's contract; the `const` keeps the schema's literal types for its payload. */
export function defineJob<const S extends TSchema>(contract: JobContract<S>): JobContract<S> {
  return contract;
}

/**
 * The definition the queue registers: the contract, its handler, and settings only known with
 * the domain's dependencies (an expiry read from configuration). The handler sees a checked
 * payload of the contract's type.
 */
export function jobDefinition<S extends TSchema>(
  contract: JobContract<S>,
  handle: (envelope: JobEnvelope<Static<S>>) => Promise<void>,
  settings: { expireInSeconds?: number; schedule?: string } = {},
): JobDefinition {
  const { sendOptions, atRelay, accepts } = contract;
  return {
    name: contract.name,
    expireInSeconds: settings.expireInSeconds ?? contract.expireInSeconds,
    retryLimit: contract.retryLimit,
    ...((settings.schedule ?? contract.schedule)
      ? { schedule: settings.schedule ?? contract.schedule }
      : {}),
    ...(contract.policy ? { policy: contract.policy } : {}),
    // A payload that does not match gets no options of its own; its claim fails it anyway.
    ...(sendOptions
      ? {
          sendOptions: (envelope) => {
            const data = envelope.data;
            return isData(contract, data) ? sendOptions({ ...envelope, data }) : {};
          },
        }
      : {}),
    // A payload that does not match is queued as it is, to be cancelled when claimed.
    ...(atRelay
      ? {
          atRelay: async (envelope, db) => {
            const data = envelope.data;
            return isData(contract, data) ? atRelay({ ...envelope, data }, db) : data;
          },
        }
      : {}),
    ...(accepts
      ? {
          accepts: (envelope) => {
            const data = envelope.data;
            return !isData(contract, data) || accepts(data);
          },
        }
      : {}),
    handle: async (envelope) => {
      const checked = checkEnvelope(contract, envelope);
      if (accepts && !accepts(checked.data)) return;
      await handle(checked);
    },
  };
}
