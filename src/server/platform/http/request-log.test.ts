import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../runtime';
import { OneLinePerRequest, registerRequestId } from './request-log';

async function appLogging() {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger({ logLevel: 'info' }, { write: (line) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
  const app = Fastify({ loggerInstance: logger, logController: new OneLinePerRequest(), genReqId: () => randomUUID() });
  registerRequestId(app);
  app.get('/ok', async (request) => {
    request.log.info('inside the route');
    return { ok: true };
  });
  app.get('/fails', async () => {
    throw new Error('boom');
  });
  await app.ready();
  return { app, lines };
}

describe('OneLinePerRequest and registerRequestId', () => {
  it('logs one line per request, with its reqId, the request, the status and the time taken', async () => {
    const { app, lines } = await appLogging();
    const response = await app.inject('/ok?token=secret');
    const id = response.headers['x-request-id'];
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const ofRequest = lines.filter((line) => line.reqId === id);
    expect(ofRequest.map((line) => line.msg)).toEqual(['inside the route', 'request completed']);
    expect(ofRequest[1]).toMatchObject({ req: { method: 'GET', url: '/ok?token=%5Bredacted%5D' }, res: { statusCode: 200 } });
    expect(typeof ofRequest[1]?.responseTime).toBe('number');
    await app.close();
  });

  it('puts x-request-id on errors and unknown routes too', async () => {
    const { app, lines } = await appLogging();
    const failed = await app.inject('/fails');
    const unknown = await app.inject('/nowhere');
    for (const response of [failed, unknown]) expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(lines.filter((line) => line.reqId === failed.headers['x-request-id']).at(-1)).toMatchObject({ res: { statusCode: 500 } });
    expect(lines.filter((line) => line.reqId === unknown.headers['x-request-id']).at(-1)).toMatchObject({ res: { statusCode: 404 }, msg: 'request completed' });
    await app.close();
  });
});
