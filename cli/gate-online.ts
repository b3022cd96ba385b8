import { isBlocking } from '../src/domains/policies/violations/blocking';
import { UsageError } from './errors';
import type { GateFinding, GateResult } from './gate-report';
import {
  backoffDelay,
  fetchWithRetry,
  RETRY_DEFAULTS,
  type RetryOptions,
  retryAfterMs,
} from './retry';

/**
 * The online gate (docs/policies.md#ci-gate): asks a running service to scan the repository (or
 * reuses its latest scan), waits for the scan, then for the policy evaluation that follows it
 * (the `policies` line the evaluation writes to the scan's log), then reads the repository's
 * violations and keeps those that block. One deadline (`--timeout`) bounds both waits; running
 * out is an error (exit 2), never a pass. Unknown enum values fail safe (block).
 */

const HELP = 'driftwatch gate --help';
const KNOWN_ACTIONS = new Set(['inform', 'warn', 'block']);
const KNOWN_STATUSES = new Set(['open', 'acknowledged', 'dismissed', 'excepted', 'resolved']);
const PAGE = 200;
/** The scan log step that says the scan's policy evaluation is done. */
export const POLICIES_STEP = 'policies';
/**
 * Polls back off with full jitter (cli/retry.ts) up to 0.5 s, 1 s, 2 s... 5 s, never below 250 ms,
 * and never below a Retry-After the last answer carried.
 */
const POLL = { baseMs: 500, maxMs: 5000 };
const MIN_POLL_MS = 250;
/** The most log lines one read returns (the contract's cap): the newest, where the line is. */
const LOG_WINDOW = 1000;

export interface OnlineOptions {
  base: string;
  token: string;
  repositoryId: string;
  rescan: boolean;
  /** How long to wait, from the start, for the scan and then its policy evaluation. */
  timeoutMs: number;
  retry?: RetryOptions;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
}

interface Scan {
  scanId: string;
  state: string;
  finishedAtUtc: string | null;
}

interface ScanLogLine {
  level: string;
  step: string;
  message: string;
  loggedAtUtc?: string;
}

/** GET /api/v1/repositories/{id}/policy-evaluation (docs/policies.md#ci-gate). */
interface Progress {
  state: string;
  pendingPolicies?: { name: string; version: number; evaluatedVersion: number | null }[];
  pendingRequests?: { reason: string; requestedAtUtc: string }[];
  policies?: number;
  lastEvaluatedAtUtc?: string | null;
}

interface Violation {
  violationId: string;
  policyId: string;
  policyName: string;
  severity: string;
  action: string;
  status: string;
  /** The service's answer (policies/violations/blocking.ts); absent from versions before it. */
  blocking?: boolean;
  ecosystem: string;
  packageName: string;
  version: string | null;
  purl: string;
  /** Where the repository's current scan declares it; absent from versions before it. */
  file?: string | null;
  line?: number | null;
}

type Call = (
  method: string,
  path: string,
  okStatuses?: number[],
) => Promise<{ status: number; body: unknown; retryAfter: string | null }>;

function client(options: OnlineOptions): Call {
  return async (method, path, okStatuses = [200]) => {
    const response = await fetchWithRetry(
      `${options.base}${path}`,
      { method, headers: { authorization: `Bearer ${options.token}`, accept: 'application/json' } },
      options.retry ?? RETRY_DEFAULTS,
    );
    const text = await response.text();
    const body = text ? (JSON.parse(text) as unknown) : null;
    if (!okStatuses.includes(response.status)) {
      const detail = (body as { detail?: string } | null)?.detail ?? '';
      throw new Error(
        `${method} ${path} answered ${response.status}${detail ? `: ${detail}` : ''}`,
      );
    }
    return { status: response.status, body, retryAfter: response.headers.get('retry-after') };
  };
}

/**
 * Classifies one violation: a reason when it blocks, null when it does not. The service's
 * `blocking` is the answer the IDE verdicts give too; a value this version does not know, or a
 * service that says blocking where this rule would not, blocks (fail safe).
 */
export function blockingReason(v: {
  action: string;
  status: string;
  blocking?: boolean;
}): string | null {
  if (!KNOWN_ACTIONS.has(v.action)) return `unknown action "${v.action}": blocking (fail safe)`;
  if (!KNOWN_STATUSES.has(v.status)) return `unknown status "${v.status}": blocking (fail safe)`;
  if (isBlocking(v.action, v.status) || v.blocking === true) return `action block, ${v.status}`;
  return null;
}

const FINISHED = new Set(['completed', 'failed', 'cancelled']);
const PENDING = new Set(['queued', 'running']);

/** The one deadline of a run and how to wait before the next poll. */
interface Waiter {
  deadline: number;
  timeoutMs: number;
  pause: (poll: number, retryAfter: string | null) => Promise<void>;
}

function waiter(options: OnlineOptions): Waiter {
  const sleep = options.sleep ?? ((ms) => new Promise<void>((r) => setTimeout(r, ms)));
  const deadline = Date.now() + options.timeoutMs;
  return {
    deadline,
    timeoutMs: options.timeoutMs,
    // Backoff with jitter; a server's Retry-After is waited in full; never past the deadline.
    pause: async (poll, retryAfter) => {
      const jittered = backoffDelay(poll, { ...POLL, random: options.random });
      const delay = Math.max(MIN_POLL_MS, jittered, retryAfterMs(retryAfter) ?? 0);
      const remaining = deadline - Date.now();
      if (remaining > 0) await sleep(Math.min(delay, remaining));
    },
  };
}

function timedOut(wait: Waiter, what: string): Error {
  return new Error(
    `timed out after ${wait.timeoutMs / 1000} s (--timeout) ${what}; nothing was judged`,
  );
}

async function latestScan(call: Call, repositoryId: string): Promise<Scan | undefined> {
  const { body } = await call('GET', `/api/v1/scans?repositoryId=${repositoryId}&take=1`);
  return (body as { items?: Scan[] }).items?.[0];
}

/** The scan to judge: a new one, or the latest (waiting for it while it still runs). */
async function settledScan(
  call: Call,
  options: OnlineOptions,
  wait: Waiter,
  notes: string[],
): Promise<{ scan: Scan; fresh: boolean }> {
  let scan = await latestScan(call, options.repositoryId);
  // Fresh: a scan this run requested or waited for, so its evaluation came after the run began.
  let fresh = true;
  if (options.rescan || !scan || scan.state === 'failed' || scan.state === 'cancelled') {
    const triggered = await call(
      'POST',
      `/api/v1/repositories/${options.repositoryId}/scan`,
      [202, 409],
    );
    if (triggered.status === 202) scan = triggered.body as Scan;
    else scan = await latestScan(call, options.repositoryId);
    notes.push(
      triggered.status === 202 ? 'scan requested' : 'a scan was already running: waiting for it',
    );
  } else {
    notes.push(`reusing the latest scan (${scan.state})`);
    fresh = PENDING.has(scan.state);
  }
  if (!scan) throw new Error('the service reports no scan of this repository');
  let retryAfter: string | null = null;
  for (let poll = 0; PENDING.has(scan.state); poll++) {
    if (Date.now() >= wait.deadline)
      throw timedOut(wait, `waiting for scan ${scan.scanId} (still ${scan.state})`);
    await wait.pause(poll, retryAfter);
    const answer = await call('GET', `/api/v1/scans/${scan.scanId}`);
    scan = answer.body as Scan;
    retryAfter = answer.retryAfter;
  }
  if (FINISHED.has(scan.state) && scan.state !== 'completed')
    throw new Error(`the scan ended ${scan.state}`);
  return { scan, fresh };
}

/**
 * Waits for the `policies` line of the scan's log: the evaluation after the scan committed, and
 * the violations with it. Returns the line (a note for the report).
 */
async function evaluatedScan(call: Call, scan: Scan, wait: Waiter): Promise<ScanLogLine> {
  for (let poll = 0; ; poll++) {
    const answer = await call('GET', `/api/v1/scans/${scan.scanId}/logs?take=${LOG_WINDOW}`);
    const lines = (answer.body as { items?: ScanLogLine[] }).items ?? [];
    const line = lines.find((l) => l.step === POLICIES_STEP);
    if (line) return line;
    if (Date.now() >= wait.deadline) {
      throw timedOut(
        wait,
        `waiting for the policy evaluation of scan ${scan.scanId} (no "${POLICIES_STEP}" line in its log yet; a scan from before evaluations were logged needs --rescan)`,
      );
    }
    await wait.pause(poll, answer.retryAfter);
  }
}

/** What is still pending, for people: each policy version and request. */
function pendingOf(progress: Progress): string[] {
  return [
    ...(progress.pendingPolicies ?? []).map(
      (p) =>
        `policy "${p.name}" version ${p.version} (${p.evaluatedVersion === null ? 'not evaluated here yet' : `evaluated here at version ${p.evaluatedVersion}`})`,
    ),
    ...(progress.pendingRequests ?? []).map(
      (r) => `an evaluation asked for at ${r.requestedAtUtc} (${r.reason})`,
    ),
  ];
}

/**
 * Waits until the repository's violations are current: every policy evaluated there at its
 * current version (a policy created or changed a moment ago included) and no evaluation asked
 * for still waiting. Null from a service that does not report it (404 on the route).
 */
async function currentEvaluation(
  call: Call,
  repositoryId: string,
  wait: Waiter,
): Promise<{ progress: Progress; waitedFor: string[] } | null> {
  const waitedFor = new Set<string>();
  for (let poll = 0; ; poll++) {
    const answer = await call(
      'GET',
      `/api/v1/repositories/${repositoryId}/policy-evaluation`,
      [200, 404],
    );
    if (answer.status === 404) return null;
    const progress = answer.body as Progress;
    if (progress.state !== 'pending') return { progress, waitedFor: [...waitedFor] };
    const pending = pendingOf(progress);
    for (const item of pending) waitedFor.add(item);
    if (Date.now() >= wait.deadline) {
      throw timedOut(
        wait,
        `waiting for pending policy evaluations of repository ${repositoryId}: ${pending.join('; ')}`,
      );
    }
    await wait.pause(poll, answer.retryAfter);
  }
}

async function allViolations(call: Call, repositoryId: string): Promise<Violation[]> {
  const out: Violation[] = [];
  for (let skip = 0; ; skip += PAGE) {
    const { body } = await call(
      'GET',
      `/api/v1/policy-violations?repositoryId=${repositoryId}&take=${PAGE}&skip=${skip}`,
    );
    const items = (body as { items?: Violation[] }).items ?? [];
    out.push(...items);
    if (items.length < PAGE) return out;
  }
}

/** A finding that is no violation: an unknown value the gate cannot judge blocks. */
function failSafe(policyName: string, status: string, reason: string): GateFinding {
  return {
    policyId: null,
    policyName,
    severity: 'critical',
    action: 'block',
    status,
    ecosystem: '',
    packageName: '',
    version: null,
    purl: null,
    file: null,
    line: null,
    violationId: null,
    reason,
  };
}

/** Which evaluation the verdict rests on (`--json`'s `evaluation`). */
export interface UsedEvaluation {
  scanId: string;
  /** When the scan's own evaluation committed (its log line). */
  scanEvaluatedAtUtc: string | null;
  /** When the latest evaluation that completed a policy version here committed. */
  policiesEvaluatedAtUtc: string | null;
  /** What the gate waited for after the scan's evaluation (policy versions, requests). */
  waitedFor: string[];
}

/**
 * The scan's evaluation, then every evaluation pending in the repository; the notes say which
 * evaluation was used and quote the scan's log line only while no later evaluation superseded it.
 */
async function usedEvaluation(
  call: Call,
  options: OnlineOptions,
  wait: Waiter,
  settled: { scan: Scan; fresh: boolean },
  out: { notes: string[]; findings: GateFinding[] },
): Promise<UsedEvaluation> {
  const { scan } = settled;
  const line = await evaluatedScan(call, scan, wait);
  if (line.level !== 'info') {
    out.findings.push(
      failSafe(
        'policy evaluation',
        line.level,
        `the evaluation logged "${line.level}": blocking (fail safe)`,
      ),
    );
  }
  const current = await currentEvaluation(call, options.repositoryId, wait);
  const used: UsedEvaluation = {
    scanId: scan.scanId,
    scanEvaluatedAtUtc: line.loggedAtUtc ?? null,
    policiesEvaluatedAtUtc: current?.progress.lastEvaluatedAtUtc ?? null,
    waitedFor: current?.waitedFor ?? [],
  };
  if (current && current.progress.state !== 'current') {
    const state = current.progress.state;
    out.findings.push(
      failSafe(
        'policy evaluation',
        state,
        `unknown evaluation state "${state}": blocking (fail safe)`,
      ),
    );
  }
  const superseded =
    used.waitedFor.length > 0 ||
    (used.policiesEvaluatedAtUtc !== null &&
      (used.scanEvaluatedAtUtc === null || used.policiesEvaluatedAtUtc > used.scanEvaluatedAtUtc));
  // The scan's line is this run's evaluation only for a scan this run waited for, and only while
  // nothing evaluated after it: otherwise its counts are of an older state of the violations.
  if (settled.fresh && !superseded) out.notes.push(line.message);
  out.notes.push(
    `evaluation used: scan ${scan.scanId}'s (${used.scanEvaluatedAtUtc ?? 'time not reported'})` +
      (current
        ? `, with every policy at its current version (${current.progress.policies ?? 0} policies; latest evaluation ${used.policiesEvaluatedAtUtc ?? 'none'})`
        : '; this service does not report later evaluations (policy changes) pending'),
  );
  if (used.waitedFor.length > 0) out.notes.push(`waited for: ${used.waitedFor.join('; ')}`);
  return used;
}

export async function runOnline(options: OnlineOptions): Promise<GateResult> {
  if (!/^[0-9a-f-]{36}$/i.test(options.repositoryId)) {
    throw new UsageError('--repository must be a repository id (uuid)', HELP);
  }
  const call = client(options);
  const notes: string[] = [];
  const wait = waiter(options);
  const settled = await settledScan(call, options, wait, notes);
  const { scan } = settled;
  const findings: GateFinding[] = [];
  let evaluation: UsedEvaluation | null = null;
  if (!FINISHED.has(scan.state)) {
    findings.push(
      failSafe(
        'scan state',
        scan.state,
        `unknown scan state "${scan.state}": blocking (fail safe)`,
      ),
    );
  } else {
    evaluation = await usedEvaluation(call, options, wait, settled, { notes, findings });
  }
  const violations = await allViolations(call, options.repositoryId);
  for (const v of violations) {
    const reason = blockingReason(v);
    if (!reason) continue;
    findings.push({
      policyId: v.policyId,
      policyName: v.policyName,
      severity: v.severity,
      action: v.action,
      status: v.status,
      ecosystem: v.ecosystem,
      packageName: v.packageName,
      version: v.version,
      purl: v.purl,
      file: v.file ?? null,
      line: v.line ?? null,
      violationId: v.violationId,
      reason,
    });
  }
  return {
    mode: 'online',
    target: `${options.base} repository ${options.repositoryId}`,
    scanId: scan.scanId,
    evaluation,
    evaluated: violations.length,
    findings,
    notes,
  };
}
