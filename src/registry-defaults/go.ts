import { join } from 'node:path';
import {
  type ClientConfigInputs,
  type ClientRegistry,
  configHome,
  found,
  httpUrl,
  none,
  shown,
} from './inputs';

/**
 * The first entry of a GOPROXY list (entries separated by `,` or `|`) when it is a proxy URL;
 * `direct` and `off` first mean Go itself uses no proxy, so neither does Driftwatch.
 */
export function firstProxy(list: string): { url: string } | { reason: string } {
  const first = list.split(/[,|]/)[0]?.trim() ?? '';
  if (first === 'direct') return { reason: 'GOPROXY starts with direct (no proxy)' };
  if (first === 'off') return { reason: 'GOPROXY is off' };
  const url = httpUrl(first);
  return url ? { url } : { reason: `GOPROXY's first entry "${first.slice(0, 80)}" is not a URL` };
}

/** `KEY=VALUE` lines of the `go env -w` file. */
function goEnvValue(text: string, key: string): string | undefined {
  let value: string | undefined;
  for (const line of text.split(/\r?\n/)) {
    const eq = line.indexOf('=');
    if (eq > 0 && line.slice(0, eq).trim() === key) value = line.slice(eq + 1).trim();
  }
  return value;
}

function fromList(list: string, source: string, warnings: string[]): ClientRegistry {
  const first = firstProxy(list);
  return 'url' in first ? found(first.url, source, warnings) : none(first.reason, warnings);
}

/**
 * `go env GOPROXY`: the GOPROXY variable, then the file `go env -w` writes (`$GOENV`, by default
 * `~/.config/go/env`); when neither sets it, the installed Go's default, asked once.
 */
export async function readGoRegistry(inputs: ClientConfigInputs): Promise<ClientRegistry> {
  const warnings: string[] = [];
  if (inputs.env.GOPROXY) return fromList(inputs.env.GOPROXY, 'GOPROXY', warnings);
  const envFile = inputs.env.GOENV ?? join(configHome(inputs), 'go', 'env');
  if (envFile !== 'off') {
    const text = inputs.readText(envFile);
    const value = text === null ? undefined : goEnvValue(text, 'GOPROXY');
    if (value) return fromList(value, `${shown(envFile, inputs.home)} (GOPROXY)`, warnings);
  }
  const asked = (await inputs.run?.('go', ['env', 'GOPROXY']))?.trim();
  if (asked) return fromList(asked, 'go env GOPROXY', warnings);
  return none(asked === undefined ? null : 'Go is not installed', warnings);
}
