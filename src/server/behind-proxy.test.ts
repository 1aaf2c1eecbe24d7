import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { closeSync, mkdtempSync, openSync, readFileSync } from 'node:fs';
import { createServer, request, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommentListView, CommentThreadView, CommentView } from '../shared/schemas/comments';
import type { ActivityView } from '../shared/schemas/loans';
import { setupApi } from '../test/api';
import { testConfig } from '../test/config';
import { backends, createTestDatabase, type TestDatabase } from '../test/databases';
import { addBorrower, createLoan, createTeamWithOwner, type Person } from '../test/factories';
import { cookieFrom } from '../test/http';
import { findNginx, freePort, startNginx, type RunningProxy } from '../test/nginx';
import { PEOPLE_PASSWORD } from '../test/people';
import { createEventParser, openEventStream, type StreamEvent } from '../test/sse-client.mjs';
import { freshTotpCode } from '../test/totp';
import { auditEvent, authAttempt } from './db/schema';
import { createLogger, createRuntime } from './runtime';

const root = path.resolve(import.meta.dirname, '../..');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits for `done()` to hold, checking every 50 ms; fails naming `what` after `ms`. */
async function until(what: string, done: () => boolean, ms = 20_000) {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

// ---------------------------------------------------------------------------
// The stream reader (src/test/sse-client.mjs), against a tiny SSE server.
// ---------------------------------------------------------------------------

describe('the event-stream reader', () => {
  it('parses events as EventSource does, however the bytes are cut', () => {
    const stream =
      '\uFEFF: a comment\r\nretry: 250\r\n\r\n' +
      'id: 7\nevent: activity\ndata: {"a":1}\n\n' +
      'event: heartbeat\ndata\n\n' +
      'data: line one\rdata:line two\r\r' +
      'id\ndata: cleared\n\n' +
      'id: 9\0x\ndata: bad id ignored\n\n' +
      'data: no end';
    const expected: StreamEvent[] = [
      { type: 'activity', data: '{"a":1}', id: '7', lastEventId: '7' },
      { type: 'heartbeat', data: '', id: null, lastEventId: '7' },
      { type: 'message', data: 'line one\nline two', id: null, lastEventId: '7' },
      { type: 'message', data: 'cleared', id: '', lastEventId: '' },
      { type: 'message', data: 'bad id ignored', id: null, lastEventId: '' },
    ];
    const bytes = Buffer.from(stream, 'utf8');
    // Every place a network could cut the bytes in two, a multi-byte character's middle included.
    for (let cut = 0; cut <= bytes.length; cut++) {
      const events: StreamEvent[] = [];
      const parser = createEventParser((event) => events.push(event));
      parser.push(bytes.subarray(0, cut));
      parser.push(bytes.subarray(cut));
      expect(events, `cut at ${cut}`).toEqual(expected);
      expect(parser.retry).toBe(250);
    }
  });

  /**
   * A stream server in a few lines: numbered events kept in memory, sent to
   * every open stream, and replayed after the Last-Event-ID a reader sends.
   */
  function tinyStreamServer() {
    const events: string[] = [];
    const open = new Set<ServerResponse>();
    const lastEventIds: string[] = [];
    let answer = 200;
    const frame = (i: number) => `id: ${i + 1}\nevent: activity\ndata: ${JSON.stringify({ n: i + 1, text: events[i] })}\n\n`;
    const server: Server = createServer((req, res) => {
      lastEventIds.push(String(req.headers['last-event-id'] ?? ''));
      if (answer !== 200) {
        res.writeHead(answer).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
      res.write('retry: 20\n\n');
      const after = Number(req.headers['last-event-id'] ?? 0);
      for (let i = after; i < events.length; i++) res.write(frame(i));
      res.write('event: heartbeat\ndata\n\n');
      open.add(res);
      res.on('close', () => open.delete(res));
    });
    return {
      server,
      lastEventIds,
      open,
      answerWith: (status: number) => (answer = status),
      publish(text: string) {
        events.push(text);
        for (const res of open) if (!res.writableEnded) res.write(frame(events.length - 1));
      },
      endAll: () => {
        for (const res of open) res.end();
        open.clear();
      },
    };
  }

  let tiny: ReturnType<typeof tinyStreamServer>;
  let url = '';
  beforeAll(async () => {
    tiny = tinyStreamServer();
    tiny.server.listen(0, '127.0.0.1');
    await once(tiny.server, 'listening');
    url = `http://127.0.0.1:${(tiny.server.address() as { port: number }).port}/events`;
  });
  afterAll(async () => {
    tiny.server.closeAllConnections();
    tiny.server.close();
  });

  it('gets every event once and in order across dropped connections and ended streams, resuming with Last-Event-ID', async () => {
    const texts: string[] = [];
    const reader = openEventStream(url, {
      onEvent: (event) => {
        if (event.type === 'activity') texts.push((JSON.parse(event.data) as { text: string }).text);
      },
    });
    const sent: string[] = [];
    let disruptions = 0;
    for (let i = 0; i < 300; i++) {
      const text = `event ${i}`;
      sent.push(text);
      tiny.publish(text);
      if (i % 30 === 29) {
        // Ten times, each once the reader is back: cut by the client's side (as a network would) or ended by the server (as a deploy does).
        await until('the reader to be connected', () => reader.connects === disruptions + 1 && tiny.open.size === 1);
        if (++disruptions % 2) reader.drop();
        else tiny.endAll();
      }
    }
    await until('every event', () => texts.length >= sent.length);
    await sleep(100);
    expect(texts).toEqual(sent);
    expect(reader.connects).toBe(11);
    // Each reconnection named the newest event it had: never empty after the first.
    expect(tiny.lastEventIds[0]).toBe('');
    expect(tiny.lastEventIds.slice(1).every((id) => /^\d+$/.test(id))).toBe(true);
    expect(reader.lastEventId).toBe('300');
    reader.close();
    await reader.done;
  });

  it('keeps trying through 502s and 503s (a proxy whose instance is down), and stops for good on a 401', async () => {
    tiny.answerWith(502);
    const opened: number[] = [];
    const errors: (Error & { status?: number })[] = [];
    const retrying = openEventStream(url, { retryMs: 10, onOpen: ({ connects }) => opened.push(connects), onError: (error) => errors.push(error) });
    const before = tiny.lastEventIds.length;
    await until('a few tries', () => tiny.lastEventIds.length >= before + 3);
    expect(opened).toEqual([]);
    tiny.answerWith(200);
    await until('the stream', () => opened.length === 1);
    retrying.close();
    await retrying.done;
    expect(errors).toEqual([]);

    tiny.answerWith(401);
    const refused = openEventStream(url, { retryMs: 10, onError: (error) => errors.push(error) });
    await refused.done;
    expect(errors.map((error) => error.status)).toEqual([401]);
    tiny.answerWith(200);
  });
});

// ---------------------------------------------------------------------------
// TRUST_PROXY naming the proxy: the client's address is the nearest one the
// proxy vouches for, never one the client wrote into X-Forwarded-For itself.
// ---------------------------------------------------------------------------

describe.each(backends)('the client address behind a proxy named in TRUST_PROXY, on %s', (backend) => {
  const api = setupApi(backend, { env: { TRUST_PROXY: '127.0.0.1' } });

  it('takes the address the proxy saw, not the one a client sent, and ignores the header from anywhere else', async () => {
    const failedFrom = async (remoteAddress: string, forwardedFor: string) => {
      const email = `nobody-${randomBytes(4).toString('hex')}@proxy.test`;
      const response = await api.app.inject({
        method: 'POST',
        url: '/api/auth/sign-in/email',
        remoteAddress,
        headers: { 'x-forwarded-for': forwardedFor, origin: 'http://localhost:3000' },
        payload: { email, password: 'not the password at all' },
      });
      expect(response.statusCode).toBe(401);
      const [row] = await api.db.select().from(auditEvent).where(like(auditEvent.subjectEmail, email));
      return row?.ip;
    };
    // Through the proxy: the client forged the first address; the proxy appended the one it saw.
    expect(await failedFrom('127.0.0.1', '203.0.113.66, 198.51.100.7')).toBe('198.51.100.7');
    // Straight to the app from elsewhere: the header is nobody's word.
    expect(await failedFrom('192.0.2.10', '203.0.113.66')).toBe('192.0.2.10');
  });
});

// ---------------------------------------------------------------------------
// Debian's nginx in front of two instances on one PostgreSQL database.
// ---------------------------------------------------------------------------

/** Where the test's client connects from: another loopback address than nginx's own, so the two can be told apart. */
const CLIENT = '127.0.0.2';
/** What a client might claim in its own X-Forwarded-For. */
const FORGED = '203.0.113.66';

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** One request from the client's address; network errors resolve as status 0 (a proxy's instance went away under it). */
function call(base: string, method: string, url: string, { cookie, body }: { cookie?: string; body?: unknown } = {}): Promise<Answer> {
  return new Promise((resolve) => {
    const req = request(
      `${base}${url}`,
      {
        method,
        localAddress: CLIENT,
        headers: {
          origin: base,
          'x-forwarded-for': FORGED,
          ...(cookie ? { cookie } : {}),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
        res.on('error', () => resolve({ status: 0, headers: {}, body: '' }));
      },
    );
    req.on('error', () => resolve({ status: 0, headers: {}, body: '' }));
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

/** One app instance: the real server in its own process (from source), its JSON log lines kept in a file. */
interface Instance {
  port: number;
  child: ChildProcess;
  logFile: string;
  stop(): Promise<void>;
}

async function startInstance(port: number, env: Record<string, string>, logFile: string): Promise<Instance> {
  const out = openSync(logFile, 'a');
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info', NODE_ENV: 'test' },
    stdio: ['ignore', out, 'pipe'],
  });
  closeSync(out);
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`the instance on ${port} exited with ${child.exitCode}: ${stderr}`);
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) break;
    if (i > 600) {
      child.kill('SIGKILL');
      throw new Error(`the instance on ${port} did not start: ${stderr}`);
    }
    await sleep(100);
  }
  return {
    port,
    child,
    logFile,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}

/** The request lines of an instance's log: what it took for the client's address. */
function requestLines(logFile: string): { url: string; remoteAddress: string }[] {
  return readFileSync(logFile, 'utf8')
    .split('\n')
    .filter((line) => line.includes('"req":'))
    .map((line) => (JSON.parse(line) as { req: { url: string; remoteAddress: string } }).req);
}

// --- The conversation: who says what, and how each side hears it. ---------

/**
 * A comment as a reader heard it on the stream. Its `comment.posted` activity
 * row carries the comment's id and never its text (decision 019), so the
 * stream is checked by ids and the text by reading the discussion at the end.
 */
interface Heard {
  cursor: number;
  commentId: string;
}

interface ConversationReader {
  heard: Heard[];
  /** Anything the reader saw go wrong: a gap or a repeat in the cursors, another loan's event, a stream that stopped for good. */
  problems: string[];
  /** How many times the stream connected: more than once when the instance serving it went away. */
  readonly connects: number;
  /** Whether the stream has told the reader where it stands (its first event id): from then on it hears every comment. */
  readonly live: boolean;
  close(): Promise<void>;
}

/**
 * One side's live stream through the proxy (`GET /api/events`): the loan's
 * `activity` events, `data: {loanId, item}`, resumed after every drop with
 * Last-Event-ID. Nothing but the conversation happens on the loan while it
 * is held, so each event's cursor must be the one after the previous event's.
 */
function readThroughStream(base: string, loanId: string, cookie: string): ConversationReader {
  const heard: Heard[] = [];
  const problems: string[] = [];
  let newest: number | null = null;
  const stream = openEventStream(`${base}/api/events?loans=${loanId}`, {
    headers: { cookie },
    localAddress: CLIENT,
    onEvent: (event) => {
      if (event.type !== 'activity') return;
      const { loanId: of, item } = JSON.parse(event.data) as { loanId: string; item: ActivityView };
      if (of !== loanId) problems.push(`an event of loan ${of}`);
      if (newest !== null && item.id !== newest + 1) problems.push(`cursor ${item.id} came after ${newest}`);
      newest = item.id;
      if (item.kind === 'comment.posted') heard.push({ cursor: item.id, commentId: String(item.data.commentId) });
      else problems.push(`an unexpected ${item.kind}`);
    },
    onError: (error) => problems.push(`the stream stopped: ${error.message}`),
  });
  return {
    heard,
    problems,
    get connects() {
      return stream.connects;
    },
    get live() {
      return stream.lastEventId !== '';
    },
    close: async () => {
      stream.close();
      await stream.done;
    },
  };
}

type Side = 'broker' | 'borrower';

interface Conversation {
  base: string;
  loanId: string;
  cookies: Record<Side, string>;
  readers: Record<Side, ConversationReader>;
}

/** The loan's discussion as `side` reads it through the proxy, every page, oldest thread first; null when an answer was lost. */
async function discussion(conversation: Conversation, side: Side): Promise<CommentThreadView[] | null> {
  const threads: CommentThreadView[] = [];
  let before: number | null | undefined;
  do {
    const answer = await call(conversation.base, 'GET', `/api/loans/${conversation.loanId}/comments${before ? `?before=${before}` : ''}`, {
      cookie: conversation.cookies[side],
    });
    if (answer.status !== 200) return null;
    const page = JSON.parse(answer.body) as CommentListView;
    threads.unshift(...page.threads);
    before = page.nextBefore;
  } while (before);
  return threads;
}

/** The comment `side` wrote saying `text`, if it landed: did a write whose answer the proxy lost go through? Undefined when that cannot be told yet. */
async function landed(conversation: Conversation, side: Side, text: string): Promise<string | null | undefined> {
  const threads = await discussion(conversation, side);
  if (!threads) return undefined;
  return threads.find((thread) => thread.body === text)?.id ?? null;
}

/** Says something: a shared comment on the loan (`PostCommentSchema`). */
function postComment(conversation: Conversation, side: Side, text: string): Promise<Answer> {
  const { base, loanId, cookies } = conversation;
  return call(base, 'POST', `/api/loans/${loanId}/comments`, { cookie: cookies[side], body: { body: text, visibility: 'shared' } });
}

/**
 * Says something once. When the proxy's answer is lost (an instance stopped
 * under the request: a dropped connection, 502, 503) the comment may or may
 * not have been posted, so it is looked up before it is sent again: the test
 * checks the app for duplicates instead of making them. Resolves with the
 * comment's id and the number of tries.
 */
async function say(conversation: Conversation, side: Side, text: string): Promise<{ commentId: string; tries: number }> {
  for (let tries = 1; tries <= 30; tries++) {
    const answer = await postComment(conversation, side, text);
    if (answer.status === 201) return { commentId: (JSON.parse(answer.body) as CommentView).id, tries };
    const lost = answer.status === 0 || answer.status >= 500;
    if (!lost) throw new Error(`${side} could not say "${text}": ${answer.status} ${answer.body}`);
    for (let looks = 0; looks < 30; looks++) {
      const commentId = await landed(conversation, side, text);
      if (commentId) return { commentId, tries };
      if (commentId === null) break;
      await sleep(100);
    }
    await sleep(100);
  }
  throw new Error(`${side} could not say "${text}" in 30 tries`);
}

async function signInThroughProxy(base: string, person: Person): Promise<string> {
  const first = await call(base, 'POST', '/api/auth/sign-in/email', { body: { email: person.email, password: PEOPLE_PASSWORD } });
  expect(first.status, first.body).toBe(200);
  if (!person.secret) return cookieFrom(first);
  const second = await call(base, 'POST', '/api/auth/two-factor/verify-totp', {
    cookie: cookieFrom(first),
    body: { code: await freshTotpCode(person.secret) },
  });
  expect(second.status, second.body).toBe(200);
  return cookieFrom(second);
}

const nginx = findNginx();
const skipped = !process.env.TEST_DATABASE_URL
  ? 'it needs PostgreSQL (TEST_DATABASE_URL): instances cannot share the embedded database'
  : !nginx
    ? "Debian's nginx is not installed (apt-get install nginx; .ci/run installs it)"
    : null;

describe('two instances behind nginx on one PostgreSQL database', () => {
  if (skipped) {
    it.skip(`skipped: ${skipped}`, () => {});
    return;
  }

  const silent = createLogger({ logLevel: 'silent' });
  let database: TestDatabase;
  let proxy: RunningProxy | undefined;
  const instances: Instance[] = [];
  const conversationReaders: ConversationReader[] = [];
  afterAll(async () => {
    for (const reader of conversationReaders) await reader.close();
    await proxy?.stop();
    for (const instance of instances) await instance.stop();
    await database?.destroy();
  });

  it('keeps a conversation through the proxy live and complete while one instance stops and starts again; the app sees the real client', async () => {
    database = await createTestDatabase('postgres');
    const work = mkdtempSync(path.join(tmpdir(), 'coverly-behind-proxy-'));
    const [portA, portB, proxyPort] = [await freePort(), await freePort(), await freePort()];
    const base = `http://127.0.0.1:${proxyPort}`;
    const shared = {
      DATABASE_URL: database.url!,
      AUTH_SECRET: randomBytes(32).toString('base64url'),
      MASTER_KEY: randomBytes(32).toString('base64'),
      PUBLIC_URL: base,
      // nginx reaches the instances from 127.0.0.1: the one proxy they believe.
      TRUST_PROXY: '127.0.0.1',
      SMTP_URL: '',
    };

    // The people and the loan, made before the instances start.
    let owner: Person;
    let borrower: Person;
    let loanId: string;
    {
      const runtime = await createRuntime(testConfig(shared), { logger: silent, distDir: '/nonexistent' });
      const factory = { app: runtime.app, db: runtime.database.db };
      const team = await createTeamWithOwner(factory);
      owner = team.owner;
      loanId = (await createLoan(factory, team.teamId, team.owner)).id;
      borrower = await addBorrower(factory, loanId);
      await runtime.stop();
    }

    const envOf = (name: string) => ({ ...shared, DATA_DIR: path.join(work, name) });
    const logOf = (name: string, run: number) => path.join(work, `${name}-${run}.log`);
    instances.push(...(await Promise.all([startInstance(portA, envOf('a'), logOf('a', 1)), startInstance(portB, envOf('b'), logOf('b', 1))])));
    proxy = await startNginx(nginx!, { port: proxyPort, upstreams: [`127.0.0.1:${portA}`, `127.0.0.1:${portB}`], failTimeoutSeconds: 1 });

    const cookies = { broker: await signInThroughProxy(base, owner), borrower: await signInThroughProxy(base, borrower) };
    const tag = `m-${randomBytes(3).toString('hex')}`;
    const conversation: Conversation = {
      base,
      loanId,
      cookies,
      readers: { broker: readThroughStream(base, loanId, cookies.broker), borrower: readThroughStream(base, loanId, cookies.borrower) },
    };
    conversationReaders.push(conversation.readers.broker, conversation.readers.borrower);
    // Each stream is live before the first word (a stream without Last-Event-ID starts from now).
    await until('both streams to be live', () => conversation.readers.broker.live && conversation.readers.borrower.live);

    const said: { text: string; commentId: string }[] = [];
    let tries = 0;
    const exchange = async (from: number, to: number) => {
      for (let i = from; i < to; i++) {
        const side: Side = i % 2 === 0 ? 'broker' : 'borrower';
        const other: Side = side === 'broker' ? 'borrower' : 'broker';
        const text = `${tag} ${i} from ${side}`;
        const posted = await say(conversation, side, text);
        tries += posted.tries;
        said.push({ text, commentId: posted.commentId });
        // A conversation: the other side hears it, live, before answering.
        await until(`${other} to hear "${text}"`, () => conversation.readers[other].heard.some((message) => message.commentId === posted.commentId));
      }
    };

    await exchange(0, 8);
    // Instance 1 stops (as a deploy stops it) in the middle of the conversation…
    await instances[0]!.stop();
    await exchange(8, 16);
    // …and starts again on its port.
    instances[0] = await startInstance(portA, envOf('a'), logOf('a', 2));
    await exchange(16, 24);
    // Enough requests for the proxy to try the returned instance again (it rests 1 s after a failure).
    await sleep(1500);
    await exchange(24, 30);

    for (const side of ['broker', 'borrower'] as const) {
      // Each comment once and in order on the live stream…
      await until(`${side} to hear everything`, () => conversation.readers[side].heard.length >= said.length);
      await sleep(300);
      expect(
        conversation.readers[side].heard.map((message) => message.commentId),
        `what the ${side} heard`,
      ).toEqual(said.map((message) => message.commentId));
      expect(conversation.readers[side].problems, `the ${side}'s stream`).toEqual([]);
      // …and the discussion holds each text once, in the order said, under the ids the stream carried.
      const threads = await discussion(conversation, side);
      expect(
        threads?.map((thread) => ({ text: thread.body, commentId: thread.id })),
        `the discussion as the ${side} reads it`,
      ).toEqual(said);
    }
    expect(tries).toBeGreaterThanOrEqual(said.length);
    // nginx put the two streams on different instances: the one on instance 1 was cut when it stopped, and resumed.
    expect(conversation.readers.broker.connects + conversation.readers.borrower.connects).toBeGreaterThan(2);

    for (const reader of conversationReaders.splice(0)) await reader.close();
    await proxy.stop();
    for (const instance of instances) await instance.stop();

    // The restarted instance took part again.
    expect(requestLines(logOf('a', 2)).filter((line) => line.url.startsWith('/api/')).length).toBeGreaterThan(0);
    expect(requestLines(logOf('b', 1)).filter((line) => line.url.startsWith('/api/')).length).toBeGreaterThan(0);
    // Every API request was taken for the client's: not nginx's address, not what the client wrote in X-Forwarded-For.
    const apiLines = [logOf('a', 1), logOf('a', 2), logOf('b', 1)].flatMap(requestLines).filter((line) => line.url.startsWith('/api/'));
    expect(apiLines.length).toBeGreaterThanOrEqual(said.length);
    expect([...new Set(apiLines.map((line) => line.remoteAddress))]).toEqual([CLIENT]);
    // …and so did the sign-in throttle and the audit log, which every instance shares.
    const signIns = await database.db.select({ ip: auditEvent.ip }).from(auditEvent).where(like(auditEvent.action, 'sign_in.%'));
    expect(signIns.map((row) => row.ip)).toEqual([CLIENT, CLIENT]);
    const keys = (await database.db.select({ key: authAttempt.key }).from(authAttempt)).map((row) => row.key);
    expect(keys.some((key) => key.endsWith(`|${CLIENT}`) || key.endsWith(`:${CLIENT}`))).toBe(true);
    expect(keys.filter((key) => key.includes('127.0.0.1') || key.includes(FORGED))).toEqual([]);
  }, 240_000);
});
