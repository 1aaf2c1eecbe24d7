// Viewers for the realtime benchmark, in a process of their own (forked by
// bench/realtime.mjs, several at once), so the clients' work does not land in
// the measured server's process. Each viewer is one event stream
// (src/test/sse-client.mjs: keep-alive socket, Last-Event-ID reconnects).
//
// A round's events are known one of two ways (`by` in `expect`):
// - 'mark': the event's data carries `bench:<round>:<seq>:<sentNs>` (the
//   bare server broadcasts the posted text); `sentNs` is process.hrtime, the
//   machine's monotonic clock, the same in every process.
// - 'commentId': the app's `activity` event of a `comment.posted` carries
//   the comment's id and never its text (decision 019). A viewer notes when
//   each id first arrived and how often; the parent, which recorded each
//   POST's send time and the id its answer returned, sends that list with
//   `collect`. (An event may reach a viewer before its POST is answered, so
//   arrivals are matched afterwards, not as they come.)
//
// Messages from the parent: open {url, count, headers[]}, expect {round,
// count, by}, drop {indexes}, wait {timeoutMs}, collect {posted?: [id, seq,
// sentNs][]}, close. Answers: {type: 'opened'}, {type: 'expecting'},
// {type: 'dropped'}, {type: 'waited', complete}, {type: 'collected', …}.
import { Agent } from 'node:http';
import { openEventStream } from '../src/test/sse-client.mjs';

const MARK = /bench:(\w+):(\d+):(\d+)/;
const agent = new Agent({ keepAlive: true, maxSockets: Infinity });
const viewers = [];
let round = null;
let by = 'mark';
let expected = 0;
let latenciesMs = [];

function onMark(viewer, data, now) {
  const mark = MARK.exec(data);
  if (!mark || mark[1] !== round) return;
  const seq = Number(mark[2]);
  if (seq >= expected) return;
  viewer.counts[seq] = Math.min(255, viewer.counts[seq] + 1);
  // The first arrival only: a replayed duplicate is counted, not timed.
  if (viewer.counts[seq] === 1) latenciesMs.push(Number(now - BigInt(mark[3])) / 1e6);
}

function onComment(viewer, data, now) {
  const { item } = JSON.parse(data);
  if (item?.kind !== 'comment.posted') return;
  const id = String(item.data?.commentId);
  const seen = viewer.arrivals.get(id);
  if (seen) seen.n += 1;
  else viewer.arrivals.set(id, { firstNs: now, n: 1 });
}

function addViewer(url, headers) {
  const viewer = { counts: null, arrivals: new Map(), stream: null };
  viewer.stream = openEventStream(url, {
    agent,
    headers,
    retryMs: 200,
    onEvent: (event) => {
      const now = process.hrtime.bigint();
      if (!viewer.counts || event.type !== 'activity') return;
      if (by === 'mark') onMark(viewer, event.data, now);
      else onComment(viewer, event.data, now);
    },
    onError: (error) => process.send({ type: 'error', message: error.message }),
  });
  viewers.push(viewer);
}

const hasAll = (viewer) => viewer.counts && (by === 'mark' ? viewer.counts.every((n) => n > 0) : viewer.arrivals.size >= expected);
const everyoneHas = () => viewers.every(hasAll);

/** Turns each viewer's arrivals by comment id into counts by seq and first-arrival delays; ids nobody posted this round are strays. */
function matchComments(posted) {
  const ids = new Set(posted.map(([id]) => id));
  let strays = 0;
  for (const viewer of viewers) {
    for (const [id, seq, sentNs] of posted) {
      const arrival = viewer.arrivals.get(id);
      if (!arrival || seq >= expected) continue;
      viewer.counts[seq] = Math.min(255, arrival.n);
      latenciesMs.push(Number(arrival.firstNs - BigInt(sentNs)) / 1e6);
    }
    for (const [id, arrival] of viewer.arrivals) if (!ids.has(id)) strays += arrival.n;
  }
  return strays;
}

process.on('message', async (message) => {
  if (message.type === 'open') {
    for (let i = 0; i < message.count; i++) addViewer(message.url, message.headers[i % message.headers.length]);
    while (viewers.some((viewer) => viewer.stream.connects === 0)) await new Promise((resolve) => setTimeout(resolve, 20));
    process.send({ type: 'opened', viewers: viewers.length });
  } else if (message.type === 'expect') {
    round = message.round;
    by = message.by ?? 'mark';
    expected = message.count;
    latenciesMs = [];
    for (const viewer of viewers) {
      viewer.counts = new Uint8Array(expected);
      viewer.arrivals = new Map();
    }
    process.send({ type: 'expecting' });
  } else if (message.type === 'drop') {
    for (const index of message.indexes) viewers[index]?.stream.drop();
    process.send({ type: 'dropped' });
  } else if (message.type === 'wait') {
    // Until every viewer has every event of the round, or the time is up.
    const deadline = Date.now() + message.timeoutMs;
    while (!everyoneHas() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    process.send({ type: 'waited', complete: everyoneHas() });
  } else if (message.type === 'collect') {
    // A stray (an earlier round's comment replayed into this one) is a duplicate too.
    const strays = by === 'commentId' ? matchComments(message.posted ?? []) : 0;
    let lost = 0;
    let duplicated = strays;
    let viewersWithLoss = 0;
    let viewersWithDuplicates = 0;
    for (const viewer of viewers) {
      const missing = viewer.counts.filter((n) => n === 0).length;
      const extra = viewer.counts.reduce((sum, n) => sum + Math.max(0, n - 1), 0);
      lost += missing;
      duplicated += extra;
      if (missing) viewersWithLoss += 1;
      if (extra) viewersWithDuplicates += 1;
    }
    const connects = viewers.reduce((sum, viewer) => sum + viewer.stream.connects, 0);
    process.send({ type: 'collected', latenciesMs, lost, duplicated, strays, viewersWithLoss, viewersWithDuplicates, connects, viewers: viewers.length });
  } else if (message.type === 'close') {
    for (const viewer of viewers) viewer.stream.close();
    agent.destroy();
    process.exit(0);
  }
});
