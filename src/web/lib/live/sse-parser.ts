/** One frame of a Server-Sent Events stream: what the browser's EventSource would dispatch (an id-only frame has no event and no data). */
export interface SseFrame {
  event?: string;
  id?: string;
  data?: string;
  retry?: number;
}

/**
 * Reads a text/event-stream as it arrives, chunk by chunk, the way the
 * HTML standard's EventSource does (lines end in \n, \r\n or \r; a blank line
 * ends a frame; a comment line starts with ':'). The live stream is read with
 * fetch rather than EventSource so the page sees the answer's status, sends
 * `Last-Event-ID` itself and learns the id of an id-only frame.
 */
export class SseParser {
  private buffer = '';
  private frame: SseFrame = {};
  private hasField = false;

  push(chunk: string): SseFrame[] {
    this.buffer += chunk;
    const frames: SseFrame[] = [];
    for (;;) {
      const match = /\r\n|\r|\n/.exec(this.buffer);
      // A trailing \r may be the first half of \r\n: wait for the next chunk.
      if (!match || (match[0] === '\r' && match.index === this.buffer.length - 1)) break;
      const line = this.buffer.slice(0, match.index);
      this.buffer = this.buffer.slice(match.index + match[0].length);
      if (line === '') {
        if (this.hasField) frames.push(this.frame);
        this.frame = {};
        this.hasField = false;
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') this.frame.event = value;
      else if (field === 'data') this.frame.data = this.frame.data === undefined ? value : `${this.frame.data}\n${value}`;
      else if (field === 'id' && !value.includes('\0')) this.frame.id = value;
      else if (field === 'retry' && /^\d+$/.test(value)) this.frame.retry = Number(value);
      else continue;
      this.hasField = true;
    }
    return frames;
  }
}
