import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * Debian's nginx in front of app instances, for tests: a configuration of
 * its own in a temporary folder (its pid file, logs and temporary files
 * there too), on a port above 1024, run in the foreground as a child
 * process. The `http` block is docs/DEPLOY.md's example with the test's
 * paths and ports; keep the two alike.
 */

/** Where Debian puts nginx; PATH first. */
export function findNginx(): string | null {
  for (const candidate of ['nginx', '/usr/sbin/nginx']) {
    const probe = spawnSync(candidate, ['-v'], { stdio: 'ignore' });
    if (probe.status === 0) return candidate;
  }
  return null;
}

/** A port nobody listens on right now (the kernel's pick), on loopback. */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

export interface ProxyOptions {
  /** The port nginx listens on, on 127.0.0.1. */
  port: number;
  /** The app instances, `host:port` each. */
  upstreams: string[];
  /** How long nginx leaves an instance alone after it failed to answer; DEPLOY.md uses 10 s, tests less. */
  failTimeoutSeconds?: number;
}

/** The nginx configuration: one upstream of every instance, the live stream unbuffered, the client's address passed on. */
export function nginxConfig(dir: string, { port, upstreams, failTimeoutSeconds = 10 }: ProxyOptions): string {
  const at = (name: string) => path.join(dir, name);
  return `# Written by src/test/nginx.ts for a test; docs/DEPLOY.md has the annotated original.
worker_processes 1;
pid ${at('nginx.pid')};
error_log ${at('error.log')} warn;
events { worker_connections 4096; }

http {
  log_format upstream '$remote_addr "$request" $status upstream=$upstream_addr';
  access_log ${at('access.log')} upstream;
  client_body_temp_path ${at('client_body')};
  proxy_temp_path ${at('proxy')};
  fastcgi_temp_path ${at('fastcgi')};
  uwsgi_temp_path ${at('uwsgi')};
  scgi_temp_path ${at('scgi')};
  client_max_body_size 0;

  upstream coverly {
    least_conn;
${upstreams.map((upstream) => `    server ${upstream} max_fails=1 fail_timeout=${failTimeoutSeconds}s;`).join('\n')}
    keepalive 16;
  }

  server {
    listen 127.0.0.1:${port};

    proxy_http_version 1.1;
    proxy_set_header Connection "";
    proxy_set_header Host $host;
    proxy_set_header X-Real-IP $remote_addr;
    proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
    proxy_set_header X-Forwarded-Proto $scheme;
    proxy_next_upstream error timeout http_502 http_503;
    proxy_request_buffering off;

    location = /api/events {
      proxy_pass http://coverly;
      proxy_buffering off;
      proxy_cache off;
      proxy_read_timeout 90s;
      gzip off;
    }

    location / {
      proxy_pass http://coverly;
    }
  }
}
`;
}

export interface RunningProxy {
  url: string;
  dir: string;
  process: ChildProcess;
  /** The access log's lines so far: the client's address, the request, the status and the instance that answered. */
  accessLog(): string[];
  stop(): Promise<void>;
}

/** Writes the configuration into a new temporary folder and runs nginx on it in the foreground; resolves once it answers. */
export async function startNginx(binary: string, options: ProxyOptions): Promise<RunningProxy> {
  const dir = mkdtempSync(path.join(tmpdir(), 'coverly-nginx-'));
  // Run as root, nginx's workers run as nobody: they must reach the temporary folders nginx makes in here.
  chmodSync(dir, 0o755);
  const config = path.join(dir, 'nginx.conf');
  writeFileSync(config, nginxConfig(dir, options));
  const test = spawnSync(binary, ['-t', '-p', dir, '-e', path.join(dir, 'error.log'), '-c', config], { encoding: 'utf8' });
  if (test.status !== 0) throw new Error(`nginx refused its configuration:\n${test.stderr}`);
  const child = spawn(binary, ['-p', dir, '-e', path.join(dir, 'error.log'), '-c', config, '-g', 'daemon off;'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const url = `http://127.0.0.1:${options.port}`;
  for (let i = 0; i < 100; i++) {
    if (child.exitCode !== null) throw new Error(`nginx exited with ${child.exitCode}: ${stderr}`);
    const listening = await new Promise<boolean>((resolve) => {
      const probe = createServer();
      probe.once('error', () => resolve(true));
      probe.listen(options.port, '127.0.0.1', () => probe.close(() => resolve(false)));
    });
    if (listening) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url,
    dir,
    process: child,
    accessLog: () => readFileSync(path.join(dir, 'access.log'), 'utf8').split('\n').filter(Boolean),
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      // TERM: nginx's fast stop (its graceful QUIT would wait for the open event streams).
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await once(child, 'exit');
      clearTimeout(timer);
    },
  };
}
