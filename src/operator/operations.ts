import { isAbsolute } from 'node:path';
import { isPlan, PLANS, type Plan } from '../core/plans';
import { isUuid } from '../core/uuid';
import type { Database } from '../db/connection';
import { newId } from '../db/ids';
import { withTenant } from '../db/tenant-scope';
import { issueOwnerToken } from '../domains/api-tokens/service';
import { insertAuditEntry } from '../domains/audit-log/store';
import { importKevFile, type KevImportSummary } from '../domains/cra/findings/kev';
import { ADVISORY_CHANGES } from '../domains/exposures/matching/rematch-request';
import { countTenants, createTenantWithOwner } from '../domains/tenants/service';
import { type ImportSummary, importPath } from '../intel/advisory-store/import';
import { importFromUrl } from '../intel/advisory-store/sync';
import { KevInputError } from '../intel/kev/catalogue';
import { tenantRoots } from '../security/tenant-roots';
import { BackupRefusedError, type BackupSummary, backupEmbedded } from './backup';

/**
 * The operator's work on the database (docs/operations.md#operator-commands), as data: each
 * operation validates its input and runs against a database. The CLI runs them in its own process
 * when nothing owns the data directory, and otherwise sends them to the owner (the running
 * service) over its operator channel, which runs the same functions: one implementation, two
 * ways in. A new command that needs the database adds an operation here.
 */
export interface OperatorContext {
  database: Database;
  dataDir: string;
  /** Where `file://` repositories may lie (SCAN_FILE_URL_ROOTS of the process running it). */
  fileUrlRoots: string[];
  /** The key the process seals secrets with; null when none exists yet (backups name it). */
  masterKey?: string | null;
}

/** The input is not what the operation takes: a usage error, not a failure of the service. */
export class OperationInputError extends Error {}

interface Operation<Input, Result> {
  parse: (input: unknown) => Input;
  run: (context: OperatorContext, input: Input) => Promise<Result>;
}

function field(input: unknown, name: string): unknown {
  return typeof input === 'object' && input !== null
    ? (input as Record<string, unknown>)[name]
    : undefined;
}

export interface CreatedTenantResult {
  tenantId: string;
  name: string;
  plan: Plan;
  ownerToken: string;
}

const createTenant: Operation<{ name: string; plan: Plan }, CreatedTenantResult> = {
  parse: (input) => {
    const name = field(input, 'name');
    const plan = field(input, 'plan');
    if (typeof name !== 'string' || name.trim() === '' || name.length > 200) {
      throw new OperationInputError('name must be a non-empty text of at most 200 characters');
    }
    if (!isPlan(plan)) throw new OperationInputError(`plan must be one of ${PLANS.join(', ')}`);
    return { name: name.trim(), plan };
  },
  run: async ({ database }, input) => {
    const { tenantId, name, plan, ownerToken } = await createTenantWithOwner(database, input);
    return { tenantId, name, plan, ownerToken };
  },
};

const importOsv: Operation<{ source: string }, ImportSummary> = {
  parse: (input) => {
    const source = field(input, 'source');
    // The owner's working directory is not the caller's: paths arrive absolute.
    if (typeof source !== 'string' || !(/^https?:\/\//i.test(source) || isAbsolute(source))) {
      throw new OperationInputError('source must be an absolute path or an http(s) URL');
    }
    return { source };
  },
  run: ({ database }, { source }) =>
    /^https?:\/\//i.test(source)
      ? importFromUrl(database, source, ADVISORY_CHANGES)
      : importPath(database, source, ADVISORY_CHANGES),
};

const importKev: Operation<{ source: string }, KevImportSummary> = {
  parse: (input) => {
    const source = field(input, 'source');
    if (typeof source !== 'string' || !isAbsolute(source) || source.length > 4096) {
      throw new OperationInputError('source must be an absolute path to a KEV catalogue file');
    }
    return { source };
  },
  run: async ({ database }, { source }) => {
    try {
      return await importKevFile(database, source);
    } catch (error) {
      // A file that is missing or not a KEV catalogue is the caller's input, not a failure.
      if (error instanceof KevInputError) throw new OperationInputError(error.message);
      throw error;
    }
  },
};

export interface StatusResult {
  engine: Database['engine'];
  dataDir: string;
  /** As configured: `{tenantId}` stands for each tenant's id. */
  fileUrlRoots: string[];
  tenants: number;
  advisories: number;
  /** With `tenant` asked for: that tenant and the file:// roots it imports from. */
  tenant?: { tenantId: string; name: string; fileUrlRoots: string[] };
}

/** A tenant named by its id or its exact name (one of that name only). */
async function findTenant(
  database: Database,
  wanted: string,
): Promise<{ id: string; name: string }> {
  const byId = isUuid(wanted);
  const rows = await database.system
    .selectFrom('tenants')
    .select(['id', 'name'])
    .where(byId ? 'id' : 'name', '=', wanted)
    .limit(2)
    .execute();
  if (rows.length === 0) throw new OperationInputError(`no tenant ${wanted}`);
  if (rows.length > 1)
    throw new OperationInputError(`several tenants are named ${wanted}: give the id`);
  return rows[0] as { id: string; name: string };
}

const status: Operation<{ tenant?: string }, StatusResult> = {
  parse: (input) => {
    const tenant = field(input, 'tenant');
    if (tenant === undefined) return {};
    if (typeof tenant !== 'string' || tenant.trim() === '' || tenant.length > 200) {
      throw new OperationInputError('tenant must be a tenant id or name');
    }
    return { tenant: tenant.trim() };
  },
  run: async ({ database, dataDir, fileUrlRoots }, input) => {
    const advisories = await database.system
      .selectFrom('osv_advisories')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const result: StatusResult = {
      engine: database.engine,
      dataDir,
      fileUrlRoots,
      tenants: await countTenants(database),
      advisories: Number(advisories.n),
    };
    if (input.tenant) {
      const { id, name } = await findTenant(database, input.tenant);
      result.tenant = { tenantId: id, name, fileUrlRoots: tenantRoots(fileUrlRoots, id) };
    }
    return result;
  },
};

export interface CreatedTokenResult {
  tenantId: string;
  tenantName: string;
  tokenId: string;
  name: string;
  ownerToken: string;
}

/**
 * A new owner token for an existing tenant: the way back in when its owner tokens are lost (none
 * can be shown again). Written with its audit entry in one tenant-scoped transaction, so the
 * tenant's audit log shows who-less, operator-made tokens (`details.via`).
 */
const createToken: Operation<{ tenant: string; name: string }, CreatedTokenResult> = {
  parse: (input) => {
    const tenant = field(input, 'tenant');
    const name = field(input, 'name') ?? 'owner (driftwatch admin create-token)';
    if (typeof tenant !== 'string' || tenant.trim() === '' || tenant.length > 200) {
      throw new OperationInputError('tenant must be a tenant id or name');
    }
    if (typeof name !== 'string' || name.trim() === '' || name.length > 200) {
      throw new OperationInputError('name must be a non-empty text of at most 200 characters');
    }
    return { tenant: tenant.trim(), name: name.trim() };
  },
  run: async ({ database }, input) => {
    const { id, name: tenantName } = await findTenant(database, input.tenant);
    const issued = await withTenant(database, id, async (db) => {
      const token = await issueOwnerToken(db, input.name, null);
      await insertAuditEntry(db, {
        actorTokenId: null,
        action: 'api_token.create',
        resourceType: 'api_token',
        resourceId: token.row.id,
        outcome: 'success',
        statusCode: 201,
        ip: null,
        correlationId: newId(),
        details: {
          via: 'driftwatch admin create-token',
          prefix: token.row.prefix,
          roles: ['owner'],
        },
      });
      return token;
    });
    return {
      tenantId: id,
      tenantName,
      tokenId: issued.row.id,
      name: issued.row.name,
      ownerToken: issued.rawSecret,
    };
  },
};

/**
 * A backup of the embedded database, taken by the process that owns it (the running service, or
 * the command itself): between two queries, so it is consistent while requests and jobs run.
 */
const backup: Operation<{ path: string }, BackupSummary> = {
  parse: (input) => {
    const path = field(input, 'path');
    if (typeof path !== 'string' || !isAbsolute(path) || path.length > 4096) {
      throw new OperationInputError('path must be an absolute path for the backup file');
    }
    return { path };
  },
  run: async ({ database, masterKey }, { path }) => {
    if (!masterKey) {
      throw new OperationInputError(
        'no master key exists yet (DRIFTWATCH_MASTER_KEY unset, no DATA_DIR/master.key): nothing to back up',
      );
    }
    try {
      return await backupEmbedded(database, path, masterKey);
    } catch (error) {
      if (error instanceof BackupRefusedError) throw new OperationInputError(error.message);
      throw error;
    }
  },
};

export const OPERATIONS = {
  backup,
  'create-tenant': createTenant,
  'create-token': createToken,
  'import-osv': importOsv,
  'import-kev': importKev,
  status,
};

export type OperationName = keyof typeof OPERATIONS;
export type OperationInput<N extends OperationName> = Parameters<(typeof OPERATIONS)[N]['run']>[1];
export type OperationResult<N extends OperationName> = Awaited<
  ReturnType<(typeof OPERATIONS)[N]['run']>
>;

export function isOperationName(name: string): name is OperationName {
  return Object.hasOwn(OPERATIONS, name);
}

/** Validates `input` for `name` and runs it (both ways in use this). */
export async function runOperation<N extends OperationName>(
  context: OperatorContext,
  name: N,
  input: unknown,
): Promise<OperationResult<N>> {
  const operation = OPERATIONS[name] as unknown as Operation<unknown, OperationResult<N>>;
  return operation.run(context, operation.parse(input));
}
