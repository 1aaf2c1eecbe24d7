/**
 * Small streaming parsers that the upload inspector (inspect.ts) runs over a
 * file as it passes. Each keeps a few bytes of state whatever the file's size,
 * and none of them throws: the inspector reads their findings at the end.
 */

/**
 * Finds a token wherever it occurs, across chunk boundaries, keeping only the
 * last few bytes of the previous chunk. `follow`, when given, must accept the
 * `follow.bytes` bytes after the token for it to count.
 */
export class TokenScan {
  count = 0;
  /** Offset just past the last occurrence, or -1. */
  lastEnd = -1;
  private carry = Buffer.alloc(0);
  private position = 0;
  private readonly need: number;

  constructor(
    private readonly token: Buffer,
    private readonly follow?: { bytes: number; test: (next: Buffer) => boolean },
  ) {
    this.need = token.length + (follow?.bytes ?? 0);
  }

  update(chunk: Buffer): void {
    const keep = this.need - 1;
    // An occurrence that starts in the carried bytes ends within the next `keep` bytes.
    if (this.carry.length > 0) this.search(Buffer.concat([this.carry, chunk.subarray(0, keep)]), this.position - this.carry.length, this.carry.length);
    this.search(chunk, this.position, chunk.length);
    this.position += chunk.length;
    const joined = chunk.length >= keep ? chunk : Buffer.concat([this.carry, chunk]);
    this.carry = Buffer.from(joined.subarray(Math.max(0, joined.length - keep)));
  }

  get retainedBytes(): number {
    return this.carry.length;
  }

  private search(buffer: Buffer, base: number, startsBefore: number): void {
    for (let at = buffer.indexOf(this.token); at !== -1 && at < startsBefore; at = buffer.indexOf(this.token, at + 1)) {
      if (at + this.need > buffer.length) return; // undecided yet: it is in the carry
      if (this.follow && !this.follow.test(buffer.subarray(at + this.token.length, at + this.need))) continue;
      this.count += 1;
      this.lastEnd = base + at + this.token.length;
    }
  }
}

/** PDF white-space and delimiter characters (PDF 32000-1 §7.2.2, tables 1 and 2). */
const PDF_DELIMITERS = new Set([0, 9, 10, 12, 13, 32, 0x28, 0x29, 0x3c, 0x3e, 0x5b, 0x5d, 0x7b, 0x7d, 0x2f, 0x25]);

/**
 * Finds the PDF name `/Encrypt`, which ends at a delimiter, so `/EncryptMetadata`
 * is another name (PDF 32000-1 §7.3.5). It looks for the first seven bytes and
 * checks the rest: Node's Buffer#indexOf is ten times slower from eight bytes on.
 */
export const encryptScan = () => new TokenScan(Buffer.from('/Encryp'), { bytes: 2, test: (next) => next[0] === 0x74 && PDF_DELIMITERS.has(next[1]!) });

type JpegState = 'marker' | 'code' | 'length1' | 'length2' | 'skip' | 'entropy' | 'entropyFF' | 'done';

/**
 * Follows a JPEG's marker segments (ITU-T T.81 Annex B) to the end-of-image
 * marker that closes the image. Segments are skipped by their length, so an
 * EXIF thumbnail's own FFD9 is not mistaken for the end; inside entropy-coded
 * data FF00 (stuffing) and FFD0–FFD7 (restarts) are not markers (§B.1.1.2).
 */
export class JpegScan {
  /** Offset just past the image's EOI marker, once seen. */
  end = -1;
  broken = false;
  /** The first bytes after the image (a phone's trailer starts here). */
  trailerStart = Buffer.alloc(0);
  /** Whether anything but zero padding follows the image. */
  trailerHasData = false;
  private state: JpegState = 'marker';
  private marker = 0;
  private skip = 0;
  private position = 0;

  update(chunk: Buffer): void {
    let i = 0;
    while (i < chunk.length && !this.broken) {
      switch (this.state) {
        case 'marker':
          if (chunk[i++] !== 0xff) this.broken = true;
          else this.state = 'code';
          break;
        case 'code':
          this.code(chunk[i++]!, this.position + i);
          break;
        case 'length1':
          this.skip = chunk[i++]! << 8;
          this.state = 'length2';
          break;
        case 'length2':
          this.skip = (this.skip | chunk[i++]!) - 2;
          if (this.skip < 0) this.broken = true;
          this.state = 'skip';
          break;
        case 'skip': {
          const step = Math.min(this.skip, chunk.length - i);
          i += step;
          this.skip -= step;
          if (this.skip === 0) this.state = this.marker === 0xda ? 'entropy' : 'marker';
          break;
        }
        case 'entropy': {
          const ff = chunk.indexOf(0xff, i);
          i = ff === -1 ? chunk.length : ff + 1;
          if (ff !== -1) this.state = 'entropyFF';
          break;
        }
        case 'entropyFF': {
          const byte = chunk[i++]!;
          if (byte === 0 || (byte >= 0xd0 && byte <= 0xd7)) this.state = 'entropy';
          else if (byte !== 0xff) this.code(byte, this.position + i);
          break;
        }
        case 'done': {
          const rest = chunk.subarray(i);
          if (this.trailerStart.length < 16) this.trailerStart = Buffer.concat([this.trailerStart, rest.subarray(0, 16 - this.trailerStart.length)]);
          if (!this.trailerHasData) this.trailerHasData = rest.some((byte) => byte !== 0);
          i = chunk.length;
          break;
        }
      }
    }
    this.position += chunk.length;
  }

  private code(byte: number, after: number): void {
    if (byte === 0xff)
      this.state = 'code'; // fill byte before a marker
    else if (byte === 0xd9) {
      this.end = after;
      this.state = 'done';
    } else if (byte === 0xd8 || byte === 0x01 || (byte >= 0xd0 && byte <= 0xd7))
      this.state = 'marker'; // no length follows
    else {
      this.marker = byte;
      this.state = 'length1';
    }
  }
}

/**
 * Walks the top-level boxes of an ISO base media file (ISO/IEC 14496-12 §4.2:
 * 32-bit size and type, size 1 → a 64-bit size follows, size 0 → to the end).
 * A HEIC photo is a row of boxes that ends exactly at the end of the file.
 */
export class BoxScan {
  broken = false;
  private header = Buffer.alloc(16);
  private headerLength = 0;
  private skip = 0;
  private toEnd = false;

  update(chunk: Buffer): void {
    let i = 0;
    while (i < chunk.length && !this.broken && !this.toEnd) {
      if (this.skip > 0) {
        const step = Math.min(this.skip, chunk.length - i);
        i += step;
        this.skip -= step;
        continue;
      }
      const want = this.headerLength >= 8 && this.header.readUInt32BE(0) === 1 ? 16 : 8;
      const step = Math.min(want - this.headerLength, chunk.length - i);
      chunk.copy(this.header, this.headerLength, i, i + step);
      this.headerLength += step;
      i += step;
      if (this.headerLength === 8 && this.header.readUInt32BE(0) === 1) continue; // the 64-bit size comes next
      if (this.headerLength < want) continue;
      const size = want === 16 ? Number(this.header.readBigUInt64BE(8)) : this.header.readUInt32BE(0);
      // Size 0 lets the media data run to the end of the file; zeros appended to a file are not a box.
      if (size === 0 && want === 8 && this.header.toString('latin1', 4, 8) === 'mdat') this.toEnd = true;
      else if (size < want || !Number.isSafeInteger(size)) this.broken = true;
      else this.skip = size - want;
      this.headerLength = 0;
    }
  }

  /** Whether the file ended exactly where its last box does. */
  get complete(): boolean {
    return !this.broken && (this.toEnd || (this.skip === 0 && this.headerLength === 0));
  }
}

/**
 * Keeps the bytes of a TIFF's first image file directory (TIFF 6.0 §2: header
 * bytes 4–7 give its offset, and writers such as libtiff put it after the
 * image data), so that file-type can read its tags however large the file.
 */
export class TiffScan {
  /** The most tags file-type reads (512) at 12 bytes each, after the 2-byte count. */
  private readonly directory = Buffer.alloc(2 + 12 * 512);
  private captured = 0;
  private position = 0;
  private readonly offset: number;
  private readonly bigEndian: boolean;

  constructor(header: Buffer) {
    this.bigEndian = header[0] === 0x4d; // "MM"
    this.offset = this.bigEndian ? header.readUInt32BE(4) : header.readUInt32LE(4);
  }

  update(chunk: Buffer): void {
    const from = Math.max(this.offset, this.position);
    const to = Math.min(this.offset + this.directory.length, this.position + chunk.length);
    if (from < to) {
      chunk.copy(this.directory, from - this.offset, from - this.position, to - this.position);
      this.captured = to - this.offset;
    }
    this.position += chunk.length;
  }

  /** The file's first 16 bytes with the directory moved right after them: what file-type reads of a TIFF. */
  standIn(head: Buffer): Buffer {
    const start = Buffer.from(head.subarray(0, 16));
    if (this.bigEndian) start.writeUInt32BE(16, 4);
    else start.writeUInt32LE(16, 4);
    return Buffer.concat([start, this.directory.subarray(0, this.captured)]);
  }

  get retainedBytes(): number {
    return this.directory.length;
  }
}

const QUOTE = 0x22;
const COMMA = 0x2c;
const CR = 0x0d;
const LF = 0x0a;
/** The bytes that end an unquoted field's text. */
const SPECIAL = new Uint8Array(256);
for (const byte of [QUOTE, COMMA, CR, LF]) SPECIAL[byte] = 1;
/** Where the CSV parser is within a field (RFC 4180 §2). */
const enum Field {
  Start,
  Unquoted,
  Quoted,
  QuoteInQuoted,
}

/**
 * The CSV rule: valid UTF-8 (the WHATWG decoder with `fatal`, streamed so a
 * character split between chunks is fine), no NUL byte, and RFC 4180 records
 * (quoted fields with doubled quotes, CRLF, LF or CR line ends, blank lines
 * ignored) with at least two columns, every row as many as the first.
 */
export class CsvScan {
  /** Not text at all: invalid UTF-8 or a NUL byte. */
  binary = false;
  /** Text, but why it is not CSV. */
  problem: string | null = null;
  rows = 0;
  private columns = 0;
  private decoder = new TextDecoder('utf-8', { fatal: true });
  private field = Field.Start;
  private separators = 0;
  private rowEmpty = true;
  private afterCr = false;

  update(chunk: Buffer): void {
    if (this.binary || this.problem) return;
    try {
      this.decoder.decode(chunk, { stream: true });
    } catch {
      this.binary = true;
    }
    if (chunk.includes(0)) this.binary = true;
    let i = 0;
    while (i < chunk.length && !this.binary && !this.problem) {
      // Runs of plain field text are skipped in bulk: inside quotes up to the next quote, outside up to the next special byte.
      if (this.field === Field.Quoted) {
        const quote = chunk.indexOf(QUOTE, i);
        if (quote === -1) break;
        i = quote;
      } else if (this.field === Field.Unquoted) {
        while (i < chunk.length && !SPECIAL[chunk[i]!]) i++;
        if (i === chunk.length) break;
      }
      const byte = chunk[i++]!;
      const afterCr = this.afterCr;
      this.afterCr = byte === CR;
      if (byte === LF && afterCr && this.field === Field.Start && this.rowEmpty) continue; // the LF of a CRLF
      switch (this.field) {
        case Field.Quoted:
          this.field = Field.QuoteInQuoted; // (the byte is a quote)
          break;
        case Field.QuoteInQuoted:
          if (byte === QUOTE) this.field = Field.Quoted;
          else this.delimiter(byte);
          break;
        case Field.Unquoted:
          this.delimiter(byte);
          break;
        case Field.Start:
          if (byte === QUOTE) this.field = Field.Quoted;
          else if (!SPECIAL[byte]) this.field = Field.Unquoted;
          else this.delimiter(byte);
          this.rowEmpty &&= byte === CR || byte === LF;
          break;
      }
    }
  }

  /** Called at the end of the file. */
  finish(): void {
    if (this.binary || this.problem) return;
    try {
      this.decoder.decode(); // a character cut off at the end throws
    } catch {
      this.binary = true;
      return;
    }
    if (this.field === Field.Quoted) this.problem = 'a quoted field is never closed';
    else if (!this.rowEmpty) this.endRow();
    if (!this.problem && this.rows === 0) this.problem = 'it has no rows';
  }

  get retainedBytes(): number {
    return 4; // the decoder's partial character at most
  }

  /** After a field: a separator, a line end, or (outside quotes) more of the field. */
  private delimiter(byte: number): void {
    if (byte === COMMA) {
      this.separators += 1;
      this.field = Field.Start;
    } else if (byte === CR || byte === LF) this.endRow();
    else if (this.field === Field.QuoteInQuoted) this.problem = `row ${this.rows + 1} has text after a closing quote`;
    else if (byte === QUOTE) this.problem = `row ${this.rows + 1} has a quote inside a field that does not start with one`;
  }

  private endRow(): void {
    const empty = this.rowEmpty && this.separators === 0;
    const columns = this.separators + 1;
    this.field = Field.Start;
    this.separators = 0;
    this.rowEmpty = true;
    if (empty) return; // a blank line
    this.rows += 1;
    if (this.rows === 1) {
      this.columns = columns;
      if (columns < 2) this.problem = 'its first row has only one column';
    } else if (columns !== this.columns) {
      this.problem = `row ${this.rows} has ${columns} columns where the first row has ${this.columns}`;
    }
  }
}
