import { describe, expect, it } from 'vitest';
import { SseParser } from './sse-parser';

describe('SseParser', () => {
  it('reads frames split anywhere across chunks, with every line ending', () => {
    const text = 'retry: 3000\n\nid: ab:t1\n\n: a comment\nevent: activity\r\nid: ab:t2\rdata: {"a":1}\ndata: {"b":2}\n\nevent: heartbeat\ndata: {}\n\n';
    for (let size = 1; size <= text.length; size++) {
      const parser = new SseParser();
      const frames = [];
      for (let i = 0; i < text.length; i += size) frames.push(...parser.push(text.slice(i, i + size)));
      expect(frames, `chunks of ${size}`).toEqual([
        { retry: 3000 },
        { id: 'ab:t1' },
        { event: 'activity', id: 'ab:t2', data: '{"a":1}\n{"b":2}' },
        { event: 'heartbeat', data: '{}' },
      ]);
    }
  });

  it('keeps an unfinished frame until its blank line arrives', () => {
    const parser = new SseParser();
    expect(parser.push('event: inbox\ndata: {"unread":1}\n')).toEqual([]);
    expect(parser.push('\n')).toEqual([{ event: 'inbox', data: '{"unread":1}' }]);
  });
});
