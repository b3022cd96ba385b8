import pg from 'pg';
import { checkHost, type OutboundPolicy } from '../../security/outbound-guard';
import type { Fact, FactRow } from './facts';

/**
 * A PostgreSQL destination (docs/workspace.md#warehouse-export). The connection string is read
 * here, never by pg: only the URL form, only the parameters below, so nothing in it can point
 * pg elsewhere (a `host=` socket path, a service file) and no `PG*` variable or password file
 * of the service fills a gap. The host goes through the outbound guard and the connection is
 * made to the checked address; TLS still verifies the certificate against the name.
 */
export const SSL_MODES = ['disable', 'require', 'verify-full'] as const;
export type SslMode = (typeof SSL_MODES)[number];

export interface PostgresTarget {
  host: string;
  port: number;
  user: string;
  password: string;
  database: string;
  sslMode: SslMode;
  /** Schema the fact tables live in. */
  schema: string;
}

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

/** Parses a connection string; throws an Error whose message names what is wrong. */
export function parseConnectionString(raw: string): PostgresTarget {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new Error('must be a postgres:// or postgresql:// URL');
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new Error('must be a postgres:// or postgresql:// URL');
  }
  if (!url.hostname || url.hostname.includes(',')) throw new Error('must name one host');
  const user = decodeURIComponent(url.username);
  if (!user) throw new Error('must name a user');
  const database = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (!database || database.includes('/')) throw new Error('must name a database');
  const port = url.port ? Number(url.port) : 5432;
  let sslMode: SslMode = 'verify-full';
  let schema = 'public';
  for (const [name, value] of url.searchParams) {
    if (name === 'sslmode') {
      if (!(SSL_MODES as readonly string[]).includes(value)) {
        throw new Error(`sslmode must be one of ${SSL_MODES.join(', ')}`);
      }
      sslMode = value as SslMode;
    } else if (name === 'schema') {
      if (!IDENTIFIER.test(value)) throw new Error('schema must be a plain lower-case name');
      schema = value;
    } else {
      throw new Error(`parameter ${name} is not supported (sslmode and schema are)`);
    }
  }
  return {
    host: url.hostname,
    port,
    user,
    password: decodeURIComponent(url.password),
    database,
    sslMode,
    schema,
  };
}

/** The connection string as callers see it: no password. */
export function redactConnectionString(target: PostgresTarget): string {
  const host =
    target.host.includes(':') && !target.host.startsWith('[') ? `[${target.host}]` : target.host;
  const user = encodeURIComponent(target.user);
  const params = `sslmode=${target.sslMode}${target.schema === 'public' ? '' : `&schema=${target.schema}`}`;
  return `postgresql://${user}@${host}:${target.port}/${encodeURIComponent(target.database)}?${params}`;
}

function sslOption(target: PostgresTarget, host: string, literal: boolean, ca?: string | Buffer) {
  if (target.sslMode === 'disable') return false;
  if (target.sslMode === 'require') return { rejectUnauthorized: false };
  return {
    rejectUnauthorized: true,
    // The connection goes to the checked address; the certificate is checked against the name.
    ...(literal ? {} : { servername: host }),
    ...(ca ? { ca } : {}),
  };
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

export interface PostgresSink {
  write: (fact: Fact, rows: readonly FactRow[]) => Promise<void>;
  close: () => Promise<void>;
}

/** Connects (guard first, then pinned to the checked address). */
export async function openPostgresSink(
  target: PostgresTarget,
  options: { policy: OutboundPolicy; timeoutMs: number; ca?: string | Buffer },
): Promise<PostgresSink> {
  const checked = await checkHost(target.host, options.policy);
  const client = new pg.Client({
    host: checked.address,
    port: target.port,
    user: target.user,
    database: target.database,
    // A function, so pg never falls back to PGPASSWORD or a password file of the service.
    password: async () => target.password,
    ssl: sslOption(target, checked.host, checked.literal, options.ca),
    connectionTimeoutMillis: options.timeoutMs,
    query_timeout: Math.max(options.timeoutMs, 60_000),
    application_name: 'driftwatch-export',
  });
  client.on('error', () => {});
  await client.connect();
  const created = new Set<string>();
  const table = (fact: Fact) => `${quote(target.schema)}.${quote(fact.table)}`;
  return {
    write: async (fact, rows) => {
      if (!created.has(fact.name)) {
        const columns = fact.columns.map((c) => `${quote(c.name)} ${c.type}`).join(', ');
        const key = fact.key.map(quote).join(', ');
        await client.query(
          `CREATE TABLE IF NOT EXISTS ${table(fact)} (${columns}, PRIMARY KEY (${key}))`,
        );
        created.add(fact.name);
      }
      if (rows.length === 0) return;
      const names = fact.columns.map((c) => c.name);
      const params: unknown[] = [];
      const tuples = rows.map((row) => {
        const slots = names.map((name) => {
          params.push(row.values[name] ?? null);
          return `$${params.length}`;
        });
        return `(${slots.join(', ')})`;
      });
      await client.query(
        `INSERT INTO ${table(fact)} (${names.map(quote).join(', ')}) VALUES ${tuples.join(', ')}
         ON CONFLICT DO NOTHING`,
        params,
      );
    },
    close: async () => {
      await client.end().catch(() => {});
    },
  };
}
