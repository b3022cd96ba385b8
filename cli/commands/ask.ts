import { parseArgs } from 'node:util';
import type { CommandOptions } from '../command';
import { fetchWithRetry, RETRY_DEFAULTS, type RetryOptions } from '../retry';
import { serviceUrl } from '../service-url';

const USAGE = `Usage: driftwatch ask "question" [--url URL] [--token TOKEN] [--time-zone ZONE] [--json]

Asks a running service (--url or DRIFTWATCH_URL, default http://127.0.0.1:$PORT, else :8080;
--token or DRIFTWATCH_TOKEN, any role) a question in plain language about the tenant's data and
prints the answer, the intent it was understood as, and the citations (docs/questions.md).
--time-zone reads relative dates ("since Monday") in an IANA zone (default: this machine's).

Exit codes: 0 answered (or asked back: the choices are printed), 1 the question was refused
(the suggested questions are printed), 2 error (usage, the service unreachable, a rejected token).`;

interface Answer {
  kind: 'answer' | 'clarification';
  answer: string;
  intent: { name: string; parameters: Record<string, unknown> };
  citations: { type: string; id: string; path: string }[];
  choices: { label: string; question: string }[];
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    options: {
      url: { type: 'string' },
      token: { type: 'string' },
      'time-zone': { type: 'string' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    allowPositionals: true,
    strict: true,
  });
}

export function renderAnswer(body: Answer): string {
  const lines = [
    body.answer,
    '',
    `intent: ${body.intent.name} ${JSON.stringify(body.intent.parameters)}`,
  ];
  if (body.choices.length > 0) {
    lines.push(
      '',
      'choices:',
      ...body.choices.map((c) => `  ${c.label}: driftwatch ask "${c.question}"`),
    );
  }
  if (body.citations.length > 0) {
    lines.push('', 'citations:', ...body.citations.map((c) => `  ${c.type} ${c.id} ${c.path}`));
  }
  return lines.join('\n');
}

export async function run(
  argv: string[],
  _options: CommandOptions,
  io: { env?: NodeJS.ProcessEnv; write?: (text: string) => void; retry?: RetryOptions } = {},
): Promise<number> {
  const env = io.env ?? process.env;
  const write = io.write ?? ((text: string) => process.stdout.write(text));
  let args: ReturnType<typeof parse>;
  try {
    args = parse(argv);
  } catch (error) {
    console.error(`driftwatch ask: ${(error as Error).message}`);
    return 2;
  }
  if (args.values.help) {
    write(`${USAGE}\n`);
    return 0;
  }
  const question = args.positionals.join(' ').trim();
  const token = args.values.token ?? env.DRIFTWATCH_TOKEN;
  if (!question || !token) {
    console.error(
      `driftwatch ask: ${!question ? 'no question given' : 'no token (--token or DRIFTWATCH_TOKEN)'}\n\n${USAGE}`,
    );
    return 2;
  }
  const timeZone = args.values['time-zone'] ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  try {
    const response = await fetchWithRetry(
      `${serviceUrl(env, args.values.url)}/api/v1/ai/query`,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          accept: 'application/json',
        },
        body: JSON.stringify({ question, timeZone }),
      },
      io.retry ?? RETRY_DEFAULTS,
    );
    const body = (await response.json()) as Answer & {
      detail?: string;
      errors?: Record<string, string[]>;
    };
    if (response.status === 200) {
      write(`${args.values.json ? JSON.stringify(body, null, 2) : renderAnswer(body)}\n`);
      return 0;
    }
    if (response.status === 422 && body.errors?.question) {
      const suggestions = body.errors.suggestions ?? [];
      write(
        `${body.detail ?? 'The question was refused.'}\n${suggestions.length ? `\nTry:\n${suggestions.map((s) => `  ${s}`).join('\n')}\n` : ''}`,
      );
      return 1;
    }
    console.error(
      `driftwatch ask: the service answered ${response.status}${body.detail ? `: ${body.detail}` : ''}`,
    );
    return 2;
  } catch (error) {
    console.error(`driftwatch ask: ${(error as Error).message}`);
    return 2;
  }
}
