// The realtime benchmark's yardstick: a bare node:http Server-Sent Events
// server with one broadcast stream and nothing else (no framework, no
// session, no database). `POST /broadcast` sends its JSON body to every open
// `GET /events` as an `activity` event with the next id, `Last-Event-ID`
// replays what a reader missed, a heartbeat goes out every 25 s, as the app's
// stream does. PORT (default 3295), HOST (127.0.0.1).
import { createServer } from 'node:http';

const port = Number(process.env.PORT ?? 3295);
const host = process.env.HOST ?? '127.0.0.1';
const HEARTBEAT_MS = 25_000;

/** Every event sent so far, as framed on the wire (index = id - 1). */
const log = [];
const open = new Set();

const frame = (id, json) => `id: ${id}\nevent: activity\ndata: ${json}\n\n`;

const server = createServer((req, res) => {
  const url = new URL(req.url, 'http://bare');
  if (req.method === 'GET' && url.pathname === '/events') {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', 'x-accel-buffering': 'no' });
    const after = Number(req.headers['last-event-id'] ?? 0) || 0;
    res.write(`retry: 1000\n\n${log.slice(after).join('')}`);
    open.add(res);
    res.on('close', () => open.delete(res));
    return;
  }
  if (req.method === 'POST' && url.pathname === '/broadcast') {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const framed = frame(log.length + 1, JSON.stringify(JSON.parse(body)));
      log.push(framed);
      for (const stream of open) stream.write(framed);
      res.writeHead(204).end();
    });
    return;
  }
  if (url.pathname === '/healthz') {
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
    return;
  }
  res.writeHead(404).end();
});

setInterval(() => {
  for (const stream of open) stream.write('event: heartbeat\ndata\n\n');
}, HEARTBEAT_MS).unref();

server.listen(port, host);
process.on('SIGTERM', () => {
  for (const stream of open) stream.end('retry: 1000\n\n');
  server.close(() => process.exit(0));
});
