import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/**
 * A real SMTP server on 127.0.0.1 for the status mail tests (docs/status.md#tests): accepts
 * every message without TLS or authentication and keeps each one parsed by mailparser.
 * `rejectNext` makes it refuse the next messages with a temporary (4xx) error.
 */
export interface SmtpSink {
  url: string;
  received: ParsedMail[];
  rejectNext: number;
  close: () => Promise<void>;
}

export async function startSmtpSink(): Promise<SmtpSink> {
  const sink: SmtpSink = { url: '', received: [], rejectNext: 0, close: async () => {} };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          if (sink.rejectNext > 0) {
            sink.rejectNext--;
            const error = Object.assign(new Error('try again later'), { responseCode: 451 });
            callback(error);
            return;
          }
          sink.received.push(mail);
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  sink.url = `smtp://127.0.0.1:${port}`;
  sink.close = () => new Promise((resolve) => server.close(() => resolve()));
  return sink;
}
