import { parseArgs } from 'node:util';
import type { CommandOptions } from '../command';
import { UsageError } from '../errors';
import { runOffline } from '../gate-offline';
import { runOnline } from '../gate-online';
import { type GateResult, renderHuman, renderJson, renderSarif } from '../gate-report';
import { writeReport } from '../output';
import { serviceUrl } from '../service-url';

const USAGE = `Usage: driftwatch gate --repository ID [--url URL] [--token TOKEN] [--rescan] [--timeout S]
       driftwatch gate <dir> --policy FILE [--osv PATH]...
       [--json | --sarif]

Fails a CI build on blocking policy violations (docs/policies.md#ci-gate).

Online, with --repository: asks a running service (--url or DRIFTWATCH_URL, default
http://127.0.0.1:$PORT, else :8080, the service's own default; --token or DRIFTWATCH_TOKEN, a member token) to scan the repository, or
reuses its latest scan (a queued or running one is waited for; --rescan always scans), waits for
the policy evaluation of that scan (the "policies" line of its log) and for any evaluation still
pending in the repository (a policy created or changed a moment ago), and reports the
violations whose action is block and whose status is open or acknowledged, with the evaluation
it used. --timeout (default 600 s) bounds the waits; running out is exit 2, never a pass.

Offline, with a directory: extracts its dependencies, matches OSV advisories read from disk
(--osv, as driftwatch audit) and evaluates the policies of a local JSON file
({"policies": [{"name", "condition", "severity", "action", "scope": {"ecosystems"}}]}); a
policy on vulnerability facts needs --osv (without it: exit 2).

  --json     the result as JSON        --sarif    SARIF 2.1.0 for code-scanning tools

Exit codes: 0 pass, 1 blocked (unknown actions, statuses or scan states block: fail safe),
2 error (usage, unreadable input, the service unreachable after retries, a timeout).`;

const HELP = 'driftwatch gate --help';

function parse(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      options: {
        repository: { type: 'string' },
        url: { type: 'string' },
        token: { type: 'string' },
        rescan: { type: 'boolean' },
        timeout: { type: 'string' },
        policy: { type: 'string' },
        osv: { type: 'string', multiple: true },
        json: { type: 'boolean' },
        sarif: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw new UsageError((error as Error).message, HELP);
  }
}

const seconds = (value: string | undefined, fallback: number, flag: string) => {
  if (value === undefined) return fallback * 1000;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0)
    throw new UsageError(`--${flag} must be a number of seconds`, HELP);
  return n * 1000;
};

async function evaluate(argv: string[], env: NodeJS.ProcessEnv): Promise<GateResult | 'help'> {
  const { values, positionals } = parse(argv);
  if (values.help) return 'help';
  if (values.json && values.sarif)
    throw new UsageError('--json and --sarif exclude each other', HELP);
  if (values.repository !== undefined) {
    if (positionals.length > 0)
      throw new UsageError('give --repository or a directory, not both', HELP);
    const token = values.token ?? env.DRIFTWATCH_TOKEN;
    if (!token) throw new UsageError('no token: pass --token or set DRIFTWATCH_TOKEN', HELP);
    return runOnline({
      base: serviceUrl(env, values.url),
      token,
      repositoryId: values.repository,
      rescan: values.rescan ?? false,
      timeoutMs: seconds(values.timeout, 600, 'timeout'),
    });
  }
  if (positionals.length !== 1 || !values.policy) {
    throw new UsageError('give --repository ID, or a directory and --policy FILE', HELP);
  }
  return runOffline(positionals[0] as string, { policyFile: values.policy, osv: values.osv ?? [] });
}

/** `driftwatch gate ...`: exit 0 pass, 1 blocked, 2 error. */
export async function run(
  argv: string[],
  _options: CommandOptions,
  io: { env?: NodeJS.ProcessEnv; write?: (text: string) => void } = {},
): Promise<number> {
  const env = io.env ?? process.env;
  const write = io.write ?? writeReport;
  let result: GateResult | 'help';
  try {
    result = await evaluate(argv, env);
  } catch (error) {
    console.error(`driftwatch gate: ${(error as Error).message}`);
    return 2;
  }
  if (result === 'help') {
    console.log(USAGE);
    return 0;
  }
  const format = argv.includes('--sarif') ? 'sarif' : argv.includes('--json') ? 'json' : 'human';
  const text =
    format === 'sarif'
      ? renderSarif(result, process.env.npm_package_version ?? '0.1.0')
      : format === 'json'
        ? renderJson(result)
        : renderHuman(result);
  write(`${text}\n`);
  return result.findings.length > 0 ? 1 : 0;
}
