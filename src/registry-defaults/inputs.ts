import { isAbsolute, join } from 'node:path';

/**
 * What the client-configuration readers may look at, passed in explicitly so that tests build a
 * temporary home and never touch the machine's own files or commands.
 */
export interface ClientConfigInputs {
  env: Record<string, string | undefined>;
  home: string;
  cwd: string;
  /** The running node binary (npm's global prefix is derived from it). */
  execPath: string;
  /** A file's text; null when it is missing, unreadable, not a file or above the size bound. */
  readText(path: string): string | null;
  /** Entry names of a directory; empty when it is missing or unreadable. */
  listDir(path: string): string[];
  /**
   * Runs an ecosystem client once with a short timeout and returns its standard output, or null
   * when the client is not installed, fails or overruns. Absent: no command is run.
   */
  run?(command: string, args: string[]): Promise<string | null>;
}

/** One ecosystem's registry as its client is configured, or why there is none. */
export type ClientRegistry =
  | { url: string; source: string; warnings: string[] }
  | { url: null; note: string | null; warnings: string[] };

export type ClientReader = (inputs: ClientConfigInputs) => ClientRegistry | Promise<ClientRegistry>;

/** Client configuration files are small; anything above this is not read. */
export const MAX_CLIENT_CONFIG_BYTES = 1024 * 1024;

export function found(url: string, source: string, warnings: string[]): ClientRegistry {
  return { url, source, warnings };
}

export function none(note: string | null, warnings: string[]): ClientRegistry {
  return { url: null, note, warnings };
}

/** An http(s) URL without surrounding blanks, or null. */
export function httpUrl(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  const text = raw.trim();
  try {
    const parsed = new URL(text);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? text : null;
  } catch {
    return null;
  }
}

/** An http(s) URL without trailing slashes (a registry base that paths are appended to), or null. */
export function baseUrl(raw: unknown): string | null {
  return httpUrl(raw)?.replace(/\/+$/, '') ?? null;
}

/** A path as the banner shows it: the home directory as `~`. */
export function shown(path: string, home: string): string {
  if (home && (path === home || path.startsWith(`${home}/`))) return `~${path.slice(home.length)}`;
  return path;
}

/** `$XDG_CONFIG_HOME` when absolute (as the XDG rules say), else `~/.config`. */
export function configHome(inputs: ClientConfigInputs): string {
  const xdg = inputs.env.XDG_CONFIG_HOME;
  return xdg && isAbsolute(xdg) ? xdg : join(inputs.home, '.config');
}

/** Reads an environment variable whatever its case (npm and pip accept both spellings). */
export function envAnyCase(env: ClientConfigInputs['env'], name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(env)) {
    if (key.toLowerCase() === wanted && value !== undefined && value !== '') return value;
  }
  return undefined;
}

export type IniSections = Map<string, Map<string, string>>;

/**
 * The INI dialect of npmrc and pip.conf: `[section]`, `key = value` (or `key: value` for pip),
 * `;`/`#` comments. Keys before any section belong to the section "". Never throws.
 */
export function parseIni(text: string): IniSections {
  const sections: IniSections = new Map([['', new Map()]]);
  let current = sections.get('') as Map<string, string>;
  for (const rawLine of text.split(/\r?\n/)) {
    const line = rawLine.trim();
    if (line === '' || line.startsWith(';') || line.startsWith('#')) continue;
    const section = /^\[([^\]]{1,200})\]$/.exec(line);
    if (section) {
      const name = (section[1] as string).trim().toLowerCase();
      current = sections.get(name) ?? new Map();
      sections.set(name, current);
      continue;
    }
    const eq = line.search(/[=:]/);
    if (eq <= 0) continue;
    const key = unquote(line.slice(0, eq).trim()).toLowerCase();
    current.set(key, unquote(line.slice(eq + 1).trim()));
  }
  return sections;
}

function unquote(text: string): string {
  const quoted = /^(["'])(.*)\1$/.exec(text);
  return quoted ? (quoted[2] as string) : text;
}

/** The directories from `dir` up to the root, nearest first. */
export function ancestors(dir: string): string[] {
  const out: string[] = [];
  let current = dir;
  for (let i = 0; i < 64; i++) {
    out.push(current);
    const parent = join(current, '..');
    if (parent === current) break;
    current = parent;
  }
  return out;
}
