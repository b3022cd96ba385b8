import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { ClientConfigInputs } from '../../src/registry-defaults/inputs';
import { machineInputs } from '../../src/registry-defaults/machine';

/**
 * Every machine here is a temporary directory: `~` is <root>/home, the working directory is
 * <root>/srv/app, and absolute system paths (/etc/...) are read from <root>/etc/... . No address
 * below is ever contacted.
 */
const roots: string[] = [];

/** Removes every machine made so far (call from afterAll). */
export function removeMachines(): void {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
}

export const R = 'http://127.0.0.1:4873';

export interface Machine {
  files?: Record<string, string>;
  env?: Record<string, string>;
  run?: ClientConfigInputs['run'];
}

export function machine({ files = {}, env = {}, run }: Machine): ClientConfigInputs {
  const root = mkdtempSync(join(tmpdir(), 'dw-client-config-'));
  roots.push(root);
  const home = join(root, 'home');
  const cwd = join(root, 'srv', 'app');
  mkdirSync(home, { recursive: true });
  mkdirSync(cwd, { recursive: true });
  const place = (path: string) =>
    path.startsWith('~/') ? join(home, path.slice(2)) : join(root, path);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(place(path)), { recursive: true });
    writeFileSync(place(path), text);
  }
  // The machine's own /etc must not leak in: absolute paths outside the root map into it.
  const inside = (path: string) => (path.startsWith(root) ? path : join(root, path));
  const real = machineInputs();
  return machineInputs({
    env: { ...env },
    home,
    cwd,
    execPath: join(root, 'usr', 'bin', 'node'),
    readText: (path) => real.readText(inside(path)),
    listDir: (path) => real.listDir(inside(path)),
    run,
  });
}
