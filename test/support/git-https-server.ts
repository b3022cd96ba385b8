import { execFileSync, spawn } from 'node:child_process';
import { createServer } from 'node:https';
import { join } from 'node:path';
import { selfSignedCertificate } from './tls-certificate';

/**
 * A real smart-HTTP git server over TLS on 127.0.0.1: `git http-backend` run as CGI behind a
 * Node https server that demands Basic credentials, the way hosted providers serve clones.
 * `caFile` is the self-signed certificate to trust (`SCAN_GIT_CA_FILE`).
 */
export interface GitHttpsServer {
  /** Clone URL of the served repository. */
  url: string;
  caFile: string;
  /** The Authorization header of every request, in order. */
  authorizations: string[];
  close: () => Promise<void>;
}

export async function startGitHttpsServer(options: {
  /** Working directory of the repository to serve (its `.git` is served). */
  repository: string;
  authorize: (username: string, password: string) => boolean;
  /** Loopback address to listen on (default 127.0.0.1) and the port (default: any). */
  host?: string;
  port?: number;
  /** Host names the certificate also covers (clones by name, pinned to `host`). */
  names?: string[];
}): Promise<GitHttpsServer> {
  const host = options.host ?? '127.0.0.1';
  const altNames = [`IP:${host}`, ...(options.names ?? []).map((name) => `DNS:${name}`)];
  const tls = selfSignedCertificate(host, altNames);
  const gitCore = execFileSync('git', ['--exec-path'], { encoding: 'utf8' }).trim();
  const authorizations: string[] = [];
  const server = createServer({ key: tls.key, cert: tls.cert }, (request, response) => {
    const auth = request.headers.authorization ?? '';
    authorizations.push(auth);
    const basic = /^Basic (.+)$/.exec(auth)?.[1];
    const decoded = basic ? Buffer.from(basic, 'base64').toString('utf8') : '';
    const colon = decoded.indexOf(':');
    if (colon < 0 || !options.authorize(decoded.slice(0, colon), decoded.slice(colon + 1))) {
      response.writeHead(401, { 'WWW-Authenticate': 'Basic realm="git"' });
      response.end('unauthorized');
      return;
    }
    const [path, query = ''] = (request.url ?? '/').split('?');
    const cgi = spawn(join(gitCore, 'git-http-backend'), [], {
      env: {
        PATH: process.env.PATH,
        GIT_PROJECT_ROOT: options.repository,
        GIT_HTTP_EXPORT_ALL: '1',
        PATH_INFO: (path ?? '/').replace(/^\/repo/, '/.git'),
        QUERY_STRING: query,
        REQUEST_METHOD: request.method,
        CONTENT_TYPE: request.headers['content-type'] ?? '',
        GIT_PROTOCOL: String(request.headers['git-protocol'] ?? ''),
        REMOTE_USER: decoded.slice(0, colon),
      },
    });
    request.pipe(cgi.stdin);
    const chunks: Buffer[] = [];
    cgi.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    cgi.on('close', () => {
      const out = Buffer.concat(chunks);
      const split = out.indexOf('\r\n\r\n');
      const headers: Record<string, string> = {};
      let status = 200;
      for (const line of out.subarray(0, split).toString().split('\r\n')) {
        const at = line.indexOf(': ');
        if (at < 0) continue;
        const key = line.slice(0, at);
        const value = line.slice(at + 2);
        if (key.toLowerCase() === 'status') status = Number.parseInt(value, 10);
        else headers[key] = value;
      }
      response.writeHead(status, headers);
      response.end(out.subarray(split + 4));
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, host, resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `https://${host}:${port}/repo`,
    caFile: tls.certFile,
    authorizations,
    close: async () => {
      await new Promise((resolve) => server.close(resolve));
      tls.remove();
    },
  };
}
