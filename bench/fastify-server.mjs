// The second yardstick for the per-request overhead benchmark: Fastify itself,
// with nothing of the app (no logger, no plugins, one route), giving the same
// answer as the app: the same JSON and the same header block (BARE_HEADERS,
// read from the app's answer; the request id is a fresh UUID per request, as
// the app's). It shows what the framework costs on this machine, so the
// results tell the framework's share of the overhead from the app's own.
import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';

const { 'x-request-id': _id, ...headers } = JSON.parse(process.env.BARE_HEADERS || '{}');
const app = Fastify({ logger: false, genReqId: () => randomUUID() });
app.addHook('onRequest', (request, reply, done) => {
  reply.header('x-request-id', request.id).headers(headers);
  done();
});
app.get('/healthz', () => ({ status: 'ok' }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.once('SIGTERM', () => process.exit(0));
process.once('SIGINT', () => process.exit(0));
