import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type Config, ConfigError, loadConfig, type ServiceRole } from './config';
import { createServiceLogger } from './logger';
import { installProcessHandlers, type ProcessState } from './process-handlers';
import { describeRegistries, readMachineDefaults } from './registry-defaults/index';
import { machineInputs } from './registry-defaults/machine';
import { checkRegistries, type UnreachableRegistries } from './registry-defaults/reachability';
import { describeDatabase, type RunningService, startService } from './service';

export interface MainOptions {
  /** A failed start prints its stack trace, not only its one-line reason. */
  debug?: boolean;
}

/**
 * A start that cannot go on: one line naming why (its stack only with --debug); exit 2 for a
 * wrong setting (as every command: README, docs/operations.md), 1 for a failure while starting.
 */
function failStart(message: string, error: unknown, options: MainOptions, code = 1): never {
  console.error(`driftwatch: ${message}`);
  if (options.debug && error instanceof Error && error.stack) console.error(error.stack);
  process.exit(code);
}

/** Process entry: configuration → database → app and workers → listen. */
export async function main(role?: ServiceRole, options: MainOptions = {}): Promise<void> {
  let config: Config;
  try {
    // The ecosystem clients' registries and the public advisory feed: read once, here.
    config = loadConfig(process.env, {}, await readMachineDefaults(machineInputs()));
  } catch (error) {
    if (error instanceof ConfigError) {
      failStart(`invalid configuration: ${error.problems.join('; ')}`, error, options, 2);
    }
    throw error;
  }
  const state: ProcessState = {
    logger: createServiceLogger(config),
    service: null,
    exiting: null,
    hardLimitSeconds: config.shutdownTimeoutSeconds + Math.ceil(config.shutdownDelayMs / 1000) + 15,
  };
  installProcessHandlers(state);
  // Side by side with the start (bounded, a few seconds at most): never delays readiness.
  const checking = checkRegistries(config.registries.baseUrls);
  let service: RunningService;
  try {
    service = await startService(config, role ?? config.role, { logger: state.logger });
  } catch (error) {
    // A half-started service (the port taken, the database gone) must not linger with its job
    // workers running: the process handlers would keep it alive.
    state.logger.debug({ err: error }, 'the service could not start');
    failStart(
      `the service could not start: ${(error as Error).message?.split('\n')[0] ?? String(error)}`,
      error,
      options,
    );
  }
  state.service = service;
  const unreachable = await checking;
  for (const [ecosystem, reason] of Object.entries(unreachable)) {
    const url = config.registries.baseUrls[ecosystem as keyof typeof unreachable];
    state.logger.warn(
      { ecosystem, url },
      `the ${ecosystem} registry at ${url} cannot be reached (${reason}): its packages stay pending until it answers`,
    );
  }
  console.log(banner(config, service, role ?? config.role, unreachable).join('\n'));
}

/** What the first screen says: where to go, which database, the first token, the registries. */
function banner(
  config: Config,
  service: RunningService,
  role: ServiceRole,
  unreachable: UnreachableRegistries,
): string[] {
  const port = service.address ? new URL(service.address).port : null;
  const shown = port ? `http://localhost:${port}` : null;
  const lines = [`Driftwatch is running (${service.database.engine} database, role ${role}).`];
  if (shown) {
    lines.push(
      `  API:       ${shown}/api/v1`,
      `  Docs:      ${shown}/docs`,
      `  OpenAPI:   ${shown}/api/v1/openapi.json`,
    );
  }
  lines.push(`  Database:  ${describeDatabase(config)}`);
  if (!config.masterKey) lines.push(`  Master key: ${join(config.dataDir, 'master.key')}`);
  const earlier = resolve('data');
  if (earlier !== config.dataDir && existsSync(join(earlier, 'pgdata', 'PG_VERSION'))) {
    lines.push(
      `  Note: ${earlier} holds an embedded database of an earlier version (which kept its data in ./data); set DATA_DIR=${earlier} to use it.`,
    );
  }
  if (service.bootstrap) {
    lines.push(
      '',
      `Created tenant "${service.bootstrap.name}" (${service.bootstrap.plan}). Its owner token is shown once:`,
      `  ${service.bootstrap.ownerToken}`,
      '',
      `Try: curl -H "Authorization: Bearer ${service.bootstrap.ownerToken}" ${shown ?? 'http://localhost:8080'}/api/v1/api-tokens`,
    );
  }
  lines.push('', ...describeRegistries(config, unreachable));
  return lines;
}

const invokedDirectly =
  process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'));
if (invokedDirectly) {
  main(undefined, { debug: process.argv.includes('--debug') }).catch((error) => {
    console.error(`driftwatch: ${(error as Error).message ?? String(error)}`);
    process.exit(1);
  });
}
