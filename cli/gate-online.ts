import { UsageError } from './errors';
import type { GateFinding, GateResult } from './gate-report';
import { fetchWithRetry, RETRY_DEFAULTS, type RetryOptions } from './retry';

/**
 * The online gate: asks a running service to scan the repository (or reuses its latest scan),
 * waits for it, lets the policy evaluation that follows a scan settle, then reads the
 * repository's violations and keeps those that block. Unknown enum values fail safe (block).
 */

const HELP = 'driftwatch gate --help';
const KNOWN_ACTIONS = new Set(['inform', 'warn', 'block']);
const BLOCKING_STATUSES = new Set(['open', 'acknowledged']);
const KNOWN_STATUSES = new Set(['open', 'acknowledged', 'dismissed', 'excepted', 'resolved']);
const PAGE = 200;

export interface OnlineOptions {
  base: string;
  token: string;
  repositoryId: string;
  rescan: boolean;
  /** How long to wait for the scan. */
  timeoutMs: number;
  /** Time after the scan finished for the evaluation jobs to run. */
  settleMs: number;
  retry?: RetryOptions;
  sleep?: (ms: number) => Promise<void>;
}

interface Scan {
  scanId: string;
  state: string;
  finishedAtUtc: string | null;
}

interface Violation {
  violationId: string;
  policyId: string;
  policyName: string;
  severity: string;
  action: string;
  status: string;
  ecosystem: string;
  packageName: string;
  version: string | null;
  purl: string;
}

type Call = (
  method: string,
  path: string,
  okStatuses?: number[],
) => Promise<{ status: number; body: unknown }>;

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
    return { status: response.status, body };
  };
}

/** Classifies one violation: a reason when it blocks, null when it does not. */
export function blockingReason(v: { action: string; status: string }): string | null {
  if (!KNOWN_ACTIONS.has(v.action)) return `unknown action "${v.action}": blocking (fail safe)`;
  if (!KNOWN_STATUSES.has(v.status)) return `unknown status "${v.status}": blocking (fail safe)`;
  if (v.action === 'block' && BLOCKING_STATUSES.has(v.status)) return `action block, ${v.status}`;
  return null;
}

const FINISHED = new Set(['completed', 'failed', 'cancelled']);
const PENDING = new Set(['queued', 'running']);

async function latestScan(call: Call, repositoryId: string): Promise<Scan | undefined> {
  const { body } = await call('GET', `/api/v1/scans?repositoryId=${repositoryId}&take=1`);
  return (body as { items?: Scan[] }).items?.[0];
}

/** The scan to judge: a new one, or the latest (waiting for it when it still runs). */
async function settledScan(call: Call, options: OnlineOptions, notes: string[]): Promise<Scan> {
  const sleep = options.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
  let scan = await latestScan(call, options.repositoryId);
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
  } else notes.push(`reusing the latest scan (${scan.state})`);
  if (!scan) throw new Error('the service reports no scan of this repository');
  const deadline = Date.now() + options.timeoutMs;
  let wait = 500;
  while (PENDING.has(scan.state)) {
    if (Date.now() > deadline)
      throw new Error(`the scan did not finish within ${options.timeoutMs / 1000} s`);
    await sleep(wait);
    wait = Math.min(wait * 2, 5000);
    scan = (await call('GET', `/api/v1/scans/${scan.scanId}`)).body as Scan;
  }
  if (!FINISHED.has(scan.state)) return scan;
  if (scan.state !== 'completed') throw new Error(`the scan ended ${scan.state}`);
  const finished = scan.finishedAtUtc ? Date.parse(scan.finishedAtUtc) : Date.now();
  const remaining = finished + options.settleMs - Date.now();
  if (remaining > 0) await sleep(remaining);
  return scan;
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

export async function runOnline(options: OnlineOptions): Promise<GateResult> {
  if (!/^[0-9a-f-]{36}$/i.test(options.repositoryId)) {
    throw new UsageError('--repository must be a repository id (uuid)', HELP);
  }
  const call = client(options);
  const notes: string[] = [];
  const scan = await settledScan(call, options, notes);
  const findings: GateFinding[] = [];
  if (!FINISHED.has(scan.state)) {
    findings.push({
      policyId: null,
      policyName: 'scan state',
      severity: 'critical',
      action: 'block',
      status: scan.state,
      ecosystem: '',
      packageName: '',
      version: null,
      purl: null,
      file: null,
      line: null,
      violationId: null,
      reason: `unknown scan state "${scan.state}": blocking (fail safe)`,
    });
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
      file: null,
      line: null,
      violationId: v.violationId,
      reason,
    });
  }
  return {
    mode: 'online',
    target: `${options.base} repository ${options.repositoryId}`,
    scanId: scan.scanId,
    evaluated: violations.length,
    findings,
    notes,
  };
}
