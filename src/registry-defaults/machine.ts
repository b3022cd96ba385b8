import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import type { ClientConfigInputs } from './inputs';
import { MAX_CLIENT_CONFIG_BYTES } from './inputs';

/** A client command that takes longer than this is treated as absent (the start must not wait). */
const CLIENT_COMMAND_TIMEOUT_MS = 3000;

function readText(path: string): string | null {
  try {
    const stat = statSync(path);
    if (!stat.isFile() || stat.size > MAX_CLIENT_CONFIG_BYTES) return null;
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

function listDir(path: string): string[] {
  try {
    return readdirSync(path);
  } catch {
    return [];
  }
}

function run(command: string, args: string[]): Promise<string | null> {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      { timeout: CLIENT_COMMAND_TIMEOUT_MS, maxBuffer: 64 * 1024, windowsHide: true },
      (error, stdout) => resolve(error ? null : String(stdout)),
    );
  });
}

/**
 * This machine: the process environment, the user's home, and the clients on its PATH. Tests
 * pass their own home, environment and file reader and no command runner.
 */
export function machineInputs(overrides: Partial<ClientConfigInputs> = {}): ClientConfigInputs {
  return {
    env: process.env,
    home: homedir(),
    cwd: process.cwd(),
    execPath: process.execPath,
    readText,
    listDir,
    run,
    ...overrides,
  };
}
