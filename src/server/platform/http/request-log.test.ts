import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../runtime';
import { deferredChildLogger, loggableUrl, loggedUrl, OneLinePerRequest, registerRequestId } from './request-log';

async function appLogging(logLevel: Parameters<typeof createLogger>[0]['logLevel'] = 'info') {
  const raw: string[] = [];
  const logger = createLogger({ logLevel }, { write: (line) => void raw.push(line) });
  const app = Fastify({
    loggerInstance: logger,
    childLoggerFactory: deferredChildLogger,
    logController: new OneLinePerRequest(logger),
    genReqId: () => randomUUID(),
  });
  registerRequestId(app);
  app.get('/ok', async (request) => {
    request.log.info('inside the route');
    return { ok: true };
  });
  app.get('/quiet', () => ({ quiet: true }));
  app.get('/debug', async (request) => {
    request.log.debug('only at debug');
    return { ok: true };
  });
  app.get('/fails', async () => {
    throw new Error('boom');
  });
  app.get('/api/auth/reset-password/:token', () => ({ ok: true }));
  app.get('/api/auth/reset-password/:token/fails', async () => {
    throw new Error('boom');
  });
  app.get('/api/loans/:loanId/items/:position', () => ({ ok: true }));
  app.get('/api/auth/*', () => ({ ok: true }));
  // As the app's own: an unknown route's answer logs nothing but its request line.
  app.setNotFoundHandler((_request, reply) => reply.code(404).send({ title: 'Not Found' }));
  await app.ready();
  return {
    app,
    logger,
    raw,
    get lines() {
      return raw.map((line) => JSON.parse(line) as Record<string, unknown>);
    },
  };
}

/** Keys of a parsed line, nested ones as `req.method`, in the order they were written. */
const keyPaths = (value: unknown, prefix = ''): string[] =>
  value && typeof value === 'object' ? Object.entries(value).flatMap(([key, inner]) => [`${prefix}${key}`, ...keyPaths(inner, `${prefix}${key}.`)]) : [];

describe('OneLinePerRequest and registerRequestId', () => {
  it('logs one line per request, with its reqId, the request, the status and the time taken', async () => {
    const log = await appLogging();
    const { app } = log;
    const response = await app.inject('/ok?token=secret');
    const { lines } = log;
    const id = response.headers['x-request-id'];
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const ofRequest = lines.filter((line) => line.reqId === id);
    expect(ofRequest.map((line) => line.msg)).toEqual(['inside the route', 'request completed']);
    expect(ofRequest[1]).toMatchObject({ req: { method: 'GET', url: '/ok?token=%5Bredacted%5D' }, res: { statusCode: 200 } });
    expect(typeof ofRequest[1]?.responseTime).toBe('number');
    await app.close();
  });

  it('never writes a password-reset token from the path, on the success line or the error line', async () => {
    const log = await appLogging();
    const token = 'Qx7bT2mZp9LkWc4RvN8sYd1E';
    await log.app.inject(`/api/auth/reset-password/${token}?callbackURL=%2Freset-password`);
    await log.app.inject(`/api/auth/reset-password/${token}/fails`);
    const urls = log.lines.flatMap((line) => (line.req as { url?: string } | undefined)?.url ?? []);
    expect(new Set(urls)).toEqual(new Set(['/api/auth/reset-password/[redacted]?callbackURL=%2Freset-password', '/api/auth/reset-password/[redacted]/fails']));
    expect(log.raw.join('')).not.toContain(token);
    await log.app.close();
  });

  it('puts x-request-id on errors and unknown routes too', async () => {
    const log = await appLogging();
    const { app } = log;
    const failed = await app.inject('/fails');
    const unknown = await app.inject('/nowhere');
    const { lines } = log;
    for (const response of [failed, unknown]) expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(lines.filter((line) => line.reqId === failed.headers['x-request-id']).at(-1)).toMatchObject({ res: { statusCode: 500 } });
    expect(lines.filter((line) => line.reqId === unknown.headers['x-request-id']).at(-1)).toMatchObject({ res: { statusCode: 404 }, msg: 'request completed' });
    await app.close();
  });

  it('writes the completion line exactly as pino would, escaped, for any URL', async () => {
    const log = await appLogging();
    const { app, logger, raw } = log;
    const url = '/quiet?name=%22quoted%22%5C&code=1234&x=\u2028';
    const response = await app.inject(url);
    const ours = log.lines.find((line) => line.reqId === response.headers['x-request-id']);
    // What pino itself writes for the same request, through the process logger's own serialisers.
    const request = { method: 'GET', url, ip: '127.0.0.1' };
    logger.child({ reqId: ours?.reqId }).info({ req: request, res: { statusCode: 200 }, responseTime: ours?.responseTime }, 'request completed');
    const pinos = JSON.parse(raw.at(-1) ?? '{}') as Record<string, unknown>;
    expect(keyPaths(ours)).toEqual(keyPaths(pinos));
    expect({ ...ours, time: 0 }).toEqual({ ...pinos, time: 0 });
    expect(ours?.req).toEqual({ method: 'GET', url: loggableUrl(url), remoteAddress: '127.0.0.1' });
    expect(JSON.stringify(ours)).not.toContain('1234');
    await app.close();
  });

  it('writes what a request logs only at the levels the logger writes, with its reqId', async () => {
    const atInfo = await appLogging('info');
    await atInfo.app.inject('/debug');
    expect(atInfo.lines.map((line) => line.msg)).toEqual(['request completed']);
    await atInfo.app.close();

    const atDebug = await appLogging('debug');
    const response = await atDebug.app.inject('/debug');
    expect(atDebug.lines.filter((line) => line.reqId === response.headers['x-request-id']).map((line) => line.msg)).toEqual([
      'only at debug',
      'request completed',
    ]);
    await atDebug.app.close();

    const atWarn = await appLogging('warn');
    await atWarn.app.inject('/ok');
    await atWarn.app.inject('/fails');
    // Fastify logs the 500's error at error level; the completion line (info) is not written.
    expect(atWarn.lines.map((line) => [line.level, line.msg])).toEqual([[50, 'boom']]);
    await atWarn.app.close();
  });
});

describe('the URL a request is logged with, decided by its route', () => {
  const token = 'tH1s-is_a-l1nk-t0ken-0f-43-characters-abcde';

  it('never writes a token sent in a path, on a route or on none, in any spelling', async () => {
    const log = await appLogging();
    const loan = '5b7c0a1e-0d7e-4a57-9d43-1c2f3e4a5b6c';
    const sent = [
      `/api/upload-link/${token}`, // no such route: the finding
      `/api/upload-link/${encodeURIComponent(token)}/`,
      `/api//upload-link/${token}?x=1`,
      `/API/upload-link/%74${token.slice(1)}`,
      `/api/loans/${token}/items/1`, // a token where an id goes
      `/api/loans/${loan}/items/${token}`,
      `/api/auth/reset-password/${token}`, // the auth library's wildcard
      `/api/auth/callback/${token}/more`,
    ];
    for (const url of sent) await log.app.inject(url);
    const urls = log.lines.map((line) => (line.req as { url: string }).url);
    expect(urls).toEqual([
      '/api/upload-link/[redacted]',
      '/api/upload-link/[redacted]/',
      '/api//upload-link/[redacted]?x=1',
      '/[redacted]/upload-link/[redacted]',
      '/api/loans/[redacted]/items/1',
      `/api/loans/${loan}/items/[redacted]`,
      '/api/auth/reset-password/[redacted]',
      '/api/auth/callback/[redacted]/more',
    ]);
    expect(log.raw.join('')).not.toContain(token.slice(5, 30));
    await log.app.close();
  });

  it('keeps what a log is read for: the route, its ids, plain words and harmless queries', () => {
    const request = (url: string, route: string | undefined, params: Record<string, string> = {}) =>
      loggedUrl({ url, params, routeOptions: { url: route } as never });
    const loan = '5b7c0a1e-0d7e-4a57-9d43-1c2f3e4a5b6c';
    expect(request('/healthz', '/healthz')).toBe('/healthz');
    expect(request(`/api/loans/${loan}/items/3?page=2&token=x`, '/api/loans/:loanId/items/:position', { loanId: loan, position: '3' })).toBe(
      `/api/loans/${loan}/items/3?page=2&token=%5Bredacted%5D`,
    );
    // The auth library's 32-character user ids are ids.
    expect(
      request('/api/teams/t/members/Dy2ffggvlxQQ7DZbAFsa7J0qvypdhkQy', '/api/teams/:teamId/members/:userId', {
        teamId: loan,
        userId: 'Dy2ffggvlxQQ7DZbAFsa7J0qvypdhkQy',
      }),
    ).toBe(`/api/teams/${loan}/members/Dy2ffggvlxQQ7DZbAFsa7J0qvypdhkQy`);
    expect(request('/api/auth/get-session', '/api/auth/*', { '*': 'get-session' })).toBe('/api/auth/get-session');
    expect(request('/app/loans/x', '/app/*', { '*': `loans/${loan}` })).toBe(`/app/loans/${loan}`);
    expect(request('/favicon.ico', undefined)).toBe('/favicon.ico');
    expect(request('/wp-admin/setup-config.php?step=1', undefined)).toBe('/wp-admin/setup-config.php?step=1');
  });
});

describe('loggableUrl', () => {
  it('keeps paths and harmless queries, and redacts secret-looking values', () => {
    expect(loggableUrl('/healthz')).toBe('/healthz');
    expect(loggableUrl('/a?')).toBe('/a');
    expect(loggableUrl('/a?page=2')).toBe('/a?page=2');
    expect(loggableUrl('/reset?token=abc&next=%2Fapp')).toBe('/reset?token=%5Bredacted%5D&next=%2Fapp');
    expect(loggableUrl('/a?b=1?c&apiKey=x')).toBe('/a?b=1%3Fc&apiKey=%5Bredacted%5D');
  });

  it('redacts a token carried in the path, after the segment that names it, as in a query', () => {
    expect(loggableUrl('/api/auth/reset-password/Qx7bT2mZp9LkWc4RvN8sYd1E?callbackURL=%2Freset-password')).toBe(
      '/api/auth/reset-password/[redacted]?callbackURL=%2Freset-password',
    );
    expect(loggableUrl('/api/auth/reset-password/Qx7bT2mZp9LkWc4RvN8sYd1E')).toBe('/api/auth/reset-password/[redacted]');
    expect(loggableUrl('/api/verify-token/t0k3n?token=x')).toBe('/api/verify-token/[redacted]?token=%5Bredacted%5D');
    // A path that names no secret keeps its ids: they are what the log is read for.
    expect(loggableUrl('/api/teams/5b7c0a1e-0d7e-4a57-9d43-1c2f3e4a5b6c/loans/Dy2ffggvlxQQ7DZbAFsa7J0qvypdhkQy')).toBe(
      '/api/teams/5b7c0a1e-0d7e-4a57-9d43-1c2f3e4a5b6c/loans/Dy2ffggvlxQQ7DZbAFsa7J0qvypdhkQy',
    );
    expect(loggableUrl('/api/auth/reset-password')).toBe('/api/auth/reset-password');
    expect(loggableUrl('/api/invitations/accept')).toBe('/api/invitations/accept');
    expect(loggableUrl('/api/teams/t1/invitations/5b7c0a1e-0d7e-4a57-9d43-1c2f3e4a5b6c')).toBe(
      '/api/teams/t1/invitations/5b7c0a1e-0d7e-4a57-9d43-1c2f3e4a5b6c',
    );
  });
});
