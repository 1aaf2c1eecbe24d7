import { createInflateRaw, type InflateRaw } from 'node:zlib';

/**
 * Walks a ZIP file's entries as it streams past, by their local headers
 * (PKWARE APPNOTE 6.3.10 §4.3.7 local file header, §4.3.9 data descriptor,
 * §4.5.3 ZIP64 extra field), and inflates every deflated entry for real
 * with zlib, counting and discarding what comes out, until the total passes
 * `limit`; then it stops inflating and the file is a zip bomb. So how large a
 * DOCX or XLSX unpacks to is measured, never taken from what the file claims:
 * the inspector then checks that the central directory (what readers follow)
 * names exactly these entries with exactly these sizes (inspect.ts).
 *
 * zlib runs on libuv's thread pool: `update` returns a promise while an
 * inflate is under way, and the upload waits for it (backpressure), so
 * memory stays a header, zlib's window and one output chunk, whatever the
 * file. Calls may also overlap: they are processed in order.
 */

/** An entry as its local header and its data showed it. */
export interface ZipLocalEntry {
  /** Where its local header starts in the file. */
  offset: number;
  name: string;
  /** 0 stored, 8 deflated. */
  method: number;
  /** Bytes of its data in the file. */
  compressedSize: number;
  /** Bytes it really unpacks to (stored: its data). */
  uncompressedSize: number;
}

export type ZipContents =
  /** Every entry walked up to the central directory, which starts at `directoryOffset`. */
  | { ok: true; entries: ZipLocalEntry[]; directoryOffset: number; unpacked: number }
  /** Unpacking passed `limit` (`unpacked` is how far it got): a zip bomb. */
  | { ok: false; problem: 'too_large'; unpacked: number }
  /**
   * `misdescribed`: an entry's header or data descriptor gives sizes it does not have; `damaged`: cut off, or not a
   * well-formed sequence of entries; `why` says what, for the refusal.
   */
  | { ok: false; problem: Problem; why: string };

type Problem = 'damaged' | 'misdescribed' | 'encrypted' | 'unsupported';

const LOCAL_HEADER = 0x04034b50;
const CENTRAL_HEADER = 0x02014b50;
const DATA_DESCRIPTOR = 0x08074b50;
const EMPTY: Buffer = Buffer.alloc(0);
/** zlib's output per round on the thread pool (Node's default is 16 KB). */
const INFLATE_CHUNK = 256 * 1024;

type State =
  | { at: 'signature' }
  | { at: 'local' }
  | { at: 'names'; entry: Pending }
  | { at: 'stored'; entry: Pending; left: number }
  | { at: 'deflated'; entry: Pending; inflate: BoundedInflate; left: number | null }
  | { at: 'descriptor'; entry: Pending }
  | { at: 'directory' };

interface Pending extends ZipLocalEntry {
  flags: number;
  zip64: boolean;
  /** The sizes the local header gives (undefined when a data descriptor follows). */
  claimed?: { compressed: number; uncompressed: number };
}

export class ZipContentScan {
  private state: State = { at: 'signature' };
  private want = 4;
  private header: Buffer = EMPTY;
  private position = 0;
  private unpacked = 0;
  private readonly entries: ZipLocalEntry[] = [];
  private failure: Exclude<ZipContents, { ok: true }> | null = null;
  private directoryOffset = -1;
  private work: Promise<void> = Promise.resolve();
  private busy = false;

  constructor(private readonly limit: number) {}

  /** Takes the next bytes; a promise while inflating, which resolves when they are all taken in. */
  update(chunk: Buffer): void | Promise<void> {
    if (this.finished) return;
    if (!this.busy) {
      const pending = this.consume(chunk, 0);
      if (!pending) return;
      return this.track(pending);
    }
    return this.track(this.work.then(() => this.consume(chunk, 0)));
  }

  /** What the walk found, once every byte given has been taken in. */
  async result(): Promise<ZipContents> {
    await this.work;
    if (this.failure) return this.failure;
    if (this.state.at !== 'directory') return { ok: false, problem: 'damaged', why: 'it is cut off before its table of contents' };
    return { ok: true, entries: this.entries, directoryOffset: this.directoryOffset, unpacked: this.unpacked };
  }

  /** A header being read (at most 30 + 2 × 65,535 bytes) and zlib's window and output chunk while inflating. */
  get retainedBytes(): number {
    return this.header.length + (this.state.at === 'deflated' ? 32 * 1024 + INFLATE_CHUNK : 0);
  }

  private get finished(): boolean {
    return this.failure !== null || this.state.at === 'directory';
  }

  private track(pending: Promise<void>): Promise<void> {
    this.busy = true;
    const work = pending.then(
      () => {
        if (this.work === work) this.busy = false;
      },
      (error: unknown) => {
        this.fail('damaged', `it could not be read (${error instanceof Error ? error.message : String(error)})`);
        if (this.work === work) this.busy = false;
      },
    );
    this.work = work;
    return work;
  }

  private fail(problem: Problem, why: string): void {
    this.failure ??= { ok: false, problem, why };
    if (this.state.at === 'deflated') this.state.inflate.close();
  }

  /** Takes `chunk` from `i` on: synchronously, unless it reaches deflated data (then a promise). */
  private consume(chunk: Buffer, i: number): void | Promise<void> {
    while (i < chunk.length && !this.finished) {
      const state = this.state;
      if (state.at === 'stored') {
        const step = Math.min(state.left, chunk.length - i);
        i += step;
        this.position += step;
        state.left -= step;
        if (state.left === 0) this.endEntry(state.entry);
        continue;
      }
      if (state.at === 'deflated') return this.inflate(state, chunk, i);
      // A header: gather `want` bytes, then read it.
      const step = Math.min(this.want - this.header.length, chunk.length - i);
      this.header = this.header.length === 0 && step === this.want ? chunk.subarray(i, i + step) : Buffer.concat([this.header, chunk.subarray(i, i + step)]);
      i += step;
      this.position += step;
      if (this.header.length === this.want) {
        const header = this.header;
        this.header = EMPTY;
        this.read(header);
      }
    }
    if (this.state.at === 'stored' && this.state.left === 0) this.endEntry(this.state.entry);
  }

  private async inflate(state: Extract<State, { at: 'deflated' }>, chunk: Buffer, i: number): Promise<void> {
    const piece = state.left === null ? chunk.subarray(i) : chunk.subarray(i, i + state.left);
    const after = await state.inflate.write(piece);
    if (this.failure) return;
    if (state.inflate.over) {
      this.unpacked = this.limit + 1;
      this.failure = { ok: false, problem: 'too_large', unpacked: this.unpacked };
      return;
    }
    if (state.inflate.error) return this.fail('damaged', `${state.entry.name} is not valid compressed data`);
    const used = piece.length - after.length;
    this.position += used;
    state.entry.compressedSize += used;
    if (state.left !== null) state.left -= used;
    if (state.inflate.ended || state.left === 0) {
      if (!state.inflate.ended) await state.inflate.finish();
      if (state.inflate.error || !state.inflate.ended) return this.fail('damaged', `${state.entry.name} is cut off`);
      if (state.left !== null && state.left > 0) return this.fail('damaged', `${state.entry.name} ends before the size its header gives`);
      state.entry.uncompressedSize = state.inflate.produced;
      state.inflate.close();
      if (state.entry.flags & 8) {
        this.state = { at: 'descriptor', entry: state.entry };
        this.want = 4;
      } else this.endEntry(state.entry);
    }
    return this.consume(chunk, i + used);
  }

  /** Reads the header gathered for the current state. */
  private read(header: Buffer): void {
    const state = this.state;
    switch (state.at) {
      case 'signature': {
        const signature = header.readUInt32LE(0);
        if (signature === CENTRAL_HEADER) {
          this.directoryOffset = this.position - 4;
          this.state = { at: 'directory' };
        } else if (signature === LOCAL_HEADER) {
          this.state = { at: 'local' };
          this.want = 26;
        } else this.fail('damaged', `it has something other than a part at byte ${this.position - 4}`);
        return;
      }
      case 'local': {
        const entry: Pending = {
          offset: this.position - 30,
          name: '',
          flags: header.readUInt16LE(2),
          method: header.readUInt16LE(4),
          compressedSize: 0,
          uncompressedSize: 0,
          zip64: false,
          claimed: { compressed: header.readUInt32LE(14), uncompressed: header.readUInt32LE(18) },
        };
        this.state = { at: 'names', entry };
        this.want = header.readUInt16LE(22) + header.readUInt16LE(24);
        this.nameLength = header.readUInt16LE(22);
        if (this.want === 0) this.read(EMPTY);
        return;
      }
      case 'names':
        return this.startData(state.entry, header);
      case 'descriptor':
        return this.readDescriptor(state.entry, header);
      default:
        return;
    }
  }

  private nameLength = 0;

  private startData(entry: Pending, names: Buffer): void {
    entry.name = names.toString(entry.flags & 0x800 ? 'utf8' : 'latin1', 0, this.nameLength);
    const claimed = entry.claimed!;
    const extra = names.subarray(this.nameLength);
    for (let i = 0; i + 4 <= extra.length; i += 4 + extra.readUInt16LE(i + 2)) {
      if (extra.readUInt16LE(i) !== 0x0001) continue;
      entry.zip64 = true;
      // In a local header the ZIP64 field holds both sizes, uncompressed first, when either is 0xFFFFFFFF.
      if (claimed.uncompressed === 0xffffffff || claimed.compressed === 0xffffffff) {
        if (i + 20 > extra.length) return this.fail('damaged', `${entry.name || 'a part'} has a broken ZIP64 field`);
        claimed.uncompressed = Number(extra.readBigUInt64LE(i + 4));
        claimed.compressed = Number(extra.readBigUInt64LE(i + 12));
      }
    }
    if (entry.flags & 1) return this.fail('encrypted', `${entry.name} is encrypted`);
    const described = (entry.flags & 8) !== 0;
    if (described) delete entry.claimed;
    if (entry.method === 8) {
      this.state = {
        at: 'deflated',
        entry,
        inflate: new BoundedInflate(() => this.limit - this.unpacked),
        left: described ? null : claimed.compressed,
      };
      // An empty deflated entry still has a final block; zero bytes of it is a cut-off entry.
      if (!described && claimed.compressed === 0) this.fail('damaged', `${entry.name} is cut off`);
    } else if (entry.method === 0) {
      // Stored data with its size only after it has no end a reader can find by walking; OOXML writers give the size.
      if (described) return this.fail('unsupported', `${entry.name} is stored uncompressed with its size only after it`);
      entry.compressedSize = entry.uncompressedSize = claimed.compressed;
      this.state = { at: 'stored', entry, left: claimed.compressed };
    } else this.fail('unsupported', `${entry.name} is compressed with method ${entry.method}, not deflate`);
  }

  private readDescriptor(entry: Pending, bytes: Buffer): void {
    // The signature is optional (§4.3.9.3); the sizes are 8 bytes each in a ZIP64 entry.
    if (bytes.length === 4) {
      this.want = (bytes.readUInt32LE(0) === DATA_DESCRIPTOR ? 8 : 4) + (entry.zip64 ? 16 : 8);
      this.header = bytes;
      return;
    }
    const at = bytes.readUInt32LE(0) === DATA_DESCRIPTOR ? 8 : 4;
    const compressed = entry.zip64 ? Number(bytes.readBigUInt64LE(at)) : bytes.readUInt32LE(at);
    const uncompressed = entry.zip64 ? Number(bytes.readBigUInt64LE(at + 8)) : bytes.readUInt32LE(at + 4);
    const wrap = (n: number) => (entry.zip64 ? n : n % 2 ** 32);
    if (compressed !== wrap(entry.compressedSize) || uncompressed !== wrap(entry.uncompressedSize)) {
      return this.fail('misdescribed', `${entry.name} gives sizes after it that are not its own`);
    }
    this.endEntry(entry);
  }

  private endEntry(entry: Pending): void {
    const claimed = entry.claimed;
    if (claimed && claimed.uncompressed !== entry.uncompressedSize) {
      return this.fail('misdescribed', `its header says ${entry.name} unpacks to ${claimed.uncompressed} bytes, but it unpacks to ${entry.uncompressedSize}`);
    }
    if (entry.method === 0) this.unpacked += entry.uncompressedSize;
    if (this.unpacked > this.limit) {
      this.failure = { ok: false, problem: 'too_large', unpacked: this.unpacked };
      return;
    }
    this.entries.push({
      offset: entry.offset,
      name: entry.name,
      method: entry.method,
      compressedSize: entry.compressedSize,
      uncompressedSize: entry.uncompressedSize,
    });
    this.state = { at: 'signature' };
    this.want = 4;
  }
}

/**
 * One deflate stream inflated by zlib (on the thread pool) with what comes
 * out counted and dropped; past `room()` bytes it stops. `write` answers the
 * bytes of the piece that came after the stream's end (zlib stops taking
 * input there), so the walker knows where a data descriptor starts.
 */
class BoundedInflate {
  produced = 0;
  over = false;
  ended = false;
  error: Error | null = null;
  private readonly stream: InflateRaw;
  private closed = false;
  private onClose: (() => void)[] = [];

  constructor(private readonly room: () => number) {
    this.stream = createInflateRaw({ chunkSize: INFLATE_CHUNK });
    this.stream.on('data', (out: Buffer) => {
      this.produced += out.length;
      if (this.produced > this.room()) {
        this.over = true;
        this.close();
      }
    });
    this.stream.on('end', () => (this.ended = true));
    this.stream.on('error', (error) => {
      this.error ??= error;
    });
    this.stream.on('close', () => {
      this.closed = true;
      for (const resolve of this.onClose.splice(0)) resolve();
    });
  }

  write(piece: Buffer): Promise<Buffer> {
    if (this.closed || this.over || this.error || this.ended) return Promise.resolve(piece);
    const before = this.stream.bytesWritten;
    return new Promise((resolve) => {
      const done = () => {
        const used = this.stream.bytesWritten - before;
        resolve(this.error || this.over ? EMPTY : piece.subarray(used));
        if (used < piece.length) this.ended = true;
      };
      this.onClose.push(done);
      this.stream.write(piece, () => {
        const index = this.onClose.indexOf(done);
        if (index !== -1) this.onClose.splice(index, 1);
        // 'end' (pushed when zlib stopped taking input) may still be on its way; a piece not taken whole says the same.
        done();
      });
    });
  }

  /** Ends the input: zlib then says whether the stream was whole (`ended`) or cut off (`error`). */
  finish(): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      this.onClose.push(resolve);
      this.stream.end();
    });
  }

  close(): void {
    if (!this.stream.destroyed) this.stream.destroy();
  }
}
