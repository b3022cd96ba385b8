import { ConfigError, loadConfig, type ServiceRole } from './config';
import { DataDirLockedError } from './db/embedded';
import { createServiceLogger } from './logger';
import { installProcessHandlers, type ProcessState } from './process-handlers';
import { describeRegistries, readMachineDefaults } from './registry-defaults/index';
import { machineInputs } from './registry-defaults/machine';
import { type RunningService, startService } from './service';

/** Process entry: configuration → database → app and workers → listen. */
export async function main(role?: ServiceRole): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    // The ecosystem clients' registries and the public advisory feed: read once, here.
    config = loadConfig(process.env, {}, await readMachineDefaults(machineInputs()));
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const state: ProcessState = {
    logger: createServiceLogger(config),
    service: null,
    exiting: null,
    hardLimitSeconds: config.shutdownTimeoutSeconds + 15,
  };
  installProcessHandlers(state);
  let service: RunningService;
  try {
    service = await startService(config, role ?? config.role, { logger: state.logger });
  } catch (error) {
    if (error instanceof DataDirLockedError) {
      console.error(error.message);
      process.exit(1);
    }
    // A half-started service (the port taken, the database gone) must not linger with its job
    // workers running: the process handlers would keep it alive.
    state.logger.fatal({ err: error }, 'the service could not start');
    process.exit(1);
  }
  state.service = service;
  const port = service.address ? new URL(service.address).port : null;
  const shown = port ? `http://localhost:${port}` : null;
  const lines = [
    `Driftwatch is running (${service.database.engine} database, role ${role ?? config.role}).`,
  ];
  if (shown) {
    lines.push(
      `  API:       ${shown}/api/v1`,
      `  Docs:      ${shown}/docs`,
      `  OpenAPI:   ${shown}/api/v1/openapi.json`,
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
  lines.push('', ...describeRegistries(config));
  console.log(lines.join('\n'));
}

const invokedDirectly =
  process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'));
if (invokedDirectly) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
