import { type ParseArgsConfig, parseArgs } from 'node:util';
import type { CommandOptions } from '../command';
import { UsageError } from '../errors';
import { ServiceUnreachableError, serviceUrl } from '../service-url';

const USAGE = `Usage: driftwatch status show
       driftwatch status incident create --title T --impact minor|major|critical|maintenance --body B [--component ID]... [--state S]
       driftwatch status incident update INCIDENT_ID --state investigating|identified|monitoring|resolved --body B
       driftwatch status changelog add --kind release|change|deprecation --title T [--body B] [--version V] [--published ISO]
       driftwatch status override COMPONENT --state operational|degraded|outage|maintenance --reason R [--until ISO]
       driftwatch status override COMPONENT --clear

Talks to a running service's operator API: DRIFTWATCH_URL (default http://127.0.0.1:$PORT,
else :8080, the service's own default) and
DRIFTWATCH_OPERATOR_TOKEN (docs/status.md#operators).`;

const HELP = 'driftwatch status --help';

function parse(args: string[], options: NonNullable<ParseArgsConfig['options']>) {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: true });
  } catch (error) {
    throw new UsageError((error as Error).message, HELP);
  }
}

const text = (value: unknown, flag: string): string => {
  if (typeof value !== 'string' || value.trim() === '')
    throw new UsageError(`--${flag} is required`, HELP);
  return value;
};

/** Calls the operator API; a refusal is one line with the problem's detail and exit code 1. */
async function call(method: string, path: string, body?: unknown): Promise<unknown> {
  const base = serviceUrl(process.env);
  const token = process.env.DRIFTWATCH_OPERATOR_TOKEN;
  if (!token && path.startsWith('/api/v1/status/') && method !== 'GET') {
    throw new UsageError('DRIFTWATCH_OPERATOR_TOKEN is not set', HELP);
  }
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  }).catch((error: unknown) => {
    throw new ServiceUnreachableError(base, error);
  });
  const payload = response.status === 204 ? null : await response.json();
  if (!response.ok) {
    const problem = payload as { detail?: string; errors?: Record<string, string[]> } | null;
    const fields = problem?.errors
      ? ` (${Object.entries(problem.errors)
          .map(([field, messages]) => `${field}: ${messages.join(', ')}`)
          .join('; ')})`
      : '';
    throw new Error(
      `${method} ${path} answered ${response.status}: ${problem?.detail ?? ''}${fields}`,
    );
  }
  return payload;
}

/** `driftwatch status <action> ...` */
export async function run(argv: string[], _options: CommandOptions): Promise<number> {
  const [action, sub, ...rest] = argv;
  if (action === 'show') {
    const status = (await call('GET', '/api/v1/status/public')) as {
      description: string;
      components: { name: string; state: string }[];
    };
    console.log(status.description);
    for (const component of status.components)
      console.log(`  ${component.name.padEnd(24)} ${component.state}`);
    return 0;
  }
  if (action === 'incident' && sub === 'create') {
    const { values } = parse(rest, {
      title: { type: 'string' },
      impact: { type: 'string' },
      body: { type: 'string' },
      state: { type: 'string' },
      component: { type: 'string', multiple: true },
    });
    const created = (await call('POST', '/api/v1/status/incidents', {
      title: text(values.title, 'title'),
      impact: text(values.impact, 'impact'),
      body: text(values.body, 'body'),
      ...(values.state ? { status: values.state } : {}),
      ...(values.component ? { components: values.component } : {}),
    })) as { id: string };
    console.log(`Created incident ${created.id}.`);
    return 0;
  }
  if (action === 'incident' && sub === 'update') {
    const { values, positionals } = parse(rest, {
      state: { type: 'string' },
      body: { type: 'string' },
    });
    const id = text(positionals[0], 'incident id');
    await call('POST', `/api/v1/status/incidents/${encodeURIComponent(id)}/updates`, {
      status: text(values.state, 'state'),
      body: text(values.body, 'body'),
    });
    console.log(`Updated incident ${id}.`);
    return 0;
  }
  if (action === 'changelog' && sub === 'add') {
    const { values } = parse(rest, {
      kind: { type: 'string' },
      title: { type: 'string' },
      body: { type: 'string' },
      version: { type: 'string' },
      published: { type: 'string' },
    });
    const created = (await call('POST', '/api/v1/status/changelog', {
      kind: text(values.kind, 'kind'),
      title: text(values.title, 'title'),
      ...(values.body ? { body: values.body } : {}),
      ...(values.version ? { version: values.version } : {}),
      ...(values.published ? { publishedAtUtc: values.published } : {}),
    })) as { id: string };
    console.log(`Added changelog entry ${created.id}.`);
    return 0;
  }
  if (action === 'override' && sub) {
    const { values } = parse(rest, {
      state: { type: 'string' },
      reason: { type: 'string' },
      until: { type: 'string' },
      clear: { type: 'boolean' },
    });
    const path = `/api/v1/status/components/${encodeURIComponent(sub)}/override`;
    if (values.clear) {
      await call('DELETE', path);
      console.log(`Cleared the override of ${sub}.`);
      return 0;
    }
    await call('PUT', path, {
      state: text(values.state, 'state'),
      reason: text(values.reason, 'reason'),
      ...(values.until ? { untilUtc: values.until } : {}),
    });
    console.log(`${sub} is now shown as ${values.state}.`);
    return 0;
  }
  if (action === '--help' || action === '-h' || action === 'help') {
    console.log(USAGE);
    return 0;
  }
  throw new UsageError(
    action ? `unknown status action "${action}"` : 'status needs an action',
    HELP,
  );
}
