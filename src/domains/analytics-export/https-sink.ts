import { gzipSync } from 'node:zlib';
import { guardedFetch, type OutboundPolicy } from '../../security/outbound-guard';
import { signedHeaders } from '../outbound-deliveries/send';
import type { Fact, FactRow } from './facts';

/**
 * An HTTPS destination (docs/workspace.md#warehouse-export): each batch is one POST of gzip
 * NDJSON (one row per line), signed like the outbound webhooks (Standard Webhooks headers; the
 * signature covers the NDJSON text, i.e. the body after gzip decoding). Through the outbound
 * guard: the name is checked and the connection pinned for every batch; no redirect is
 * followed. Only a 2xx answer counts as delivered.
 */
export interface HttpsBatch {
  /** webhook-id: `<runId>.<fact>.<n>`. */
  id: string;
  fact: Fact;
  rows: readonly FactRow[];
}

export class BatchRefusedError extends Error {
  override name = 'BatchRefusedError';
}

export function ndjsonOf(rows: readonly FactRow[]): string {
  return rows.map((row) => `${JSON.stringify(row.values)}\n`).join('');
}

export async function sendBatch(
  url: string,
  secret: string,
  batch: HttpsBatch,
  options: { policy: OutboundPolicy; timeoutMs: number; ca?: string | Buffer },
): Promise<{ bytes: number }> {
  const ndjson = ndjsonOf(batch.rows);
  const body = gzipSync(Buffer.from(ndjson, 'utf8'));
  const now = new Date();
  const message = { id: batch.id, type: 'analytics.export', occurredAt: now, data: {} };
  const headers = {
    ...signedHeaders(secret, message, ndjson, now),
    'content-type': 'application/x-ndjson',
    'content-encoding': 'gzip',
    'user-agent': 'Driftwatch-Export/1',
    'driftwatch-export-table': batch.fact.name,
    'driftwatch-export-rows': String(batch.rows.length),
  };
  const response = await guardedFetch(
    url,
    { method: 'POST', headers, body, signal: AbortSignal.timeout(options.timeoutMs) },
    {
      policy: options.policy,
      protocols: ['https:'],
      maxRedirects: 0,
      connectTimeoutMs: options.timeoutMs,
      ...(options.ca ? { ca: options.ca } : {}),
    },
  );
  await response.body?.cancel().catch(() => {});
  if (response.status < 200 || response.status >= 300) {
    throw new BatchRefusedError(`the endpoint answered ${response.status}`);
  }
  return { bytes: body.byteLength };
}
