// The yardstick for the per-request overhead benchmark: node:http answering
// GET /healthz with the same answer as the app, and nothing else. The same
// answer means the same JSON and the same header block: BARE_HEADERS holds the
// headers the app sent (its security set, a request id), read from the app's
// own answer before the load starts, so both servers put the same bytes on the
// wire and the load generator parses the same answer. What differs is only the
// work behind it (routing, hooks, a fresh request id, the log line).
import { createServer } from 'node:http';

const body = JSON.stringify({ status: 'ok' });
const port = Number(process.env.PORT);
const headers = {
  ...JSON.parse(process.env.BARE_HEADERS || '{}'),
  'content-type': 'application/json; charset=utf-8',
  'content-length': Buffer.byteLength(body),
};
createServer((req, res) => {
  if (req.url === '/healthz') {
    res.writeHead(200, headers);
    res.end(body);
  } else {
    res.writeHead(404).end();
  }
}).listen(port, '127.0.0.1');
process.once('SIGTERM', () => process.exit(0));
process.once('SIGINT', () => process.exit(0));
