import { createHash, randomBytes } from 'node:crypto';
import { Readable, Writable } from 'node:stream';
import { buffer as collect } from 'node:stream/consumers';
import { pipeline } from 'node:stream/promises';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { unwrapDataKey, wrapDataKey, wrappingKeyId } from './key-wrap';
import {
  CIPHERTEXT_SEGMENT,
  ciphertextSize,
  decryptRangeStream,
  decryptStream,
  DecryptionError,
  encryptStream,
  headerLength,
  newDataKey,
  parseHeader,
  PLAINTEXT_SEGMENT,
  segmentSpan,
} from './streaming-aead';

const KEY_ID = 'file-key-1';

/** Feeds `bytes` in pieces of the given sizes (cycled), as a socket would. */
function chunked(bytes: Buffer, sizes: number[] = [7919]): Readable {
  const pieces: Buffer[] = [];
  for (let at = 0, i = 0; at < bytes.length; i++) {
    const size = Math.max(1, sizes[i % sizes.length]!);
    pieces.push(bytes.subarray(at, at + size));
    at += size;
  }
  return Readable.from(pieces, { objectMode: false });
}

async function encrypt(plain: Buffer, key: Buffer, sizes?: number[]) {
  const out: Buffer[] = [];
  await pipeline(chunked(plain, sizes), encryptStream(key, KEY_ID), async (source: AsyncIterable<Buffer>) => {
    for await (const chunk of source) out.push(chunk);
  });
  return Buffer.concat(out);
}

const decrypt = (stored: Buffer, key: Buffer, sizes?: number[], expectedKeyId?: string) =>
  collect(chunked(stored, sizes).pipe(decryptStream(key, expectedKeyId)));

/** Runs a decryption and returns what it released before it failed, and the error. */
async function decryptUntilError(stored: Buffer, key: Buffer) {
  const released: Buffer[] = [];
  try {
    await pipeline(chunked(stored, [CIPHERTEXT_SEGMENT]), decryptStream(key), async (source: AsyncIterable<Buffer>) => {
      for await (const chunk of source) released.push(chunk);
    });
    return { released: Buffer.concat(released), error: null };
  } catch (error) {
    return { released: Buffer.concat(released), error: error as Error };
  }
}

describe('streaming AEAD for stored files', () => {
  const key = newDataKey();

  it.each([0, 1, 100, PLAINTEXT_SEGMENT - 1, PLAINTEXT_SEGMENT, PLAINTEXT_SEGMENT + 1, 3 * PLAINTEXT_SEGMENT, 3 * PLAINTEXT_SEGMENT + 17])(
    'round-trips %i bytes, with the size it announces',
    async (size) => {
      const plain = randomBytes(size);
      const stored = await encrypt(plain, key, [1, 4096, 65_537, 13]);
      expect(stored.length).toBe(ciphertextSize(size, KEY_ID));
      expect((await decrypt(stored, key, [3, 70_000, 1])).equals(plain)).toBe(true);
    },
  );

  it('round-trips any size in any chunking (property-based)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 4 * PLAINTEXT_SEGMENT }),
        fc.array(fc.integer({ min: 1, max: 100_000 }), { minLength: 1, maxLength: 5 }),
        async (size, sizes) => {
          const plain = randomBytes(size);
          const stored = await encrypt(plain, key, sizes);
          expect((await decrypt(stored, key, sizes.toReversed())).equals(plain)).toBe(true);
        },
      ),
      { numRuns: 25 },
    );
  });

  it('stores no 16-byte window of the plaintext, nor its magic bytes, and a fresh salt and nonce each time', async () => {
    const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(3 * PLAINTEXT_SEGMENT, 'A stream of very regular text. ')]);
    const first = await encrypt(pdf, key);
    const second = await encrypt(pdf, key);
    expect(first.equals(second)).toBe(false);
    for (let at = 0; at + 16 <= pdf.length; at += 1) {
      // Every window of a repetitive text is one of a few dozen distinct ones; checking each one found is enough.
      if (at > 64 && at % 997 !== 0) continue;
      expect(first.includes(pdf.subarray(at, at + 16)), `window at ${at}`).toBe(false);
    }
    expect(first.includes(Buffer.from('%PDF'))).toBe(false);
  });

  it('detects a flipped bit anywhere, releasing nothing of the altered segment or after it', async () => {
    const plain = randomBytes(3 * PLAINTEXT_SEGMENT + 500);
    const stored = await encrypt(plain, key);
    const header = headerLength(KEY_ID);
    for (const at of [0, 1, 5, header - 1, header, header + 10, header + CIPHERTEXT_SEGMENT - 1, header + CIPHERTEXT_SEGMENT + 3, stored.length - 1]) {
      const altered = Buffer.from(stored);
      altered[at]! ^= 0x01;
      const { released, error } = await decryptUntilError(altered, key);
      expect(error, `byte ${at}`).toBeInstanceOf(DecryptionError);
      // Whole segments before the altered one may have been released, and only they, each intact.
      const segment = Math.max(0, Math.floor((at - header) / CIPHERTEXT_SEGMENT));
      expect(released.length, `byte ${at}`).toBeLessThanOrEqual(at < header ? 0 : segment * PLAINTEXT_SEGMENT);
      expect(plain.subarray(0, released.length).equals(released), `byte ${at}`).toBe(true);
    }
  });

  it('detects a file cut at a segment boundary or inside one, reordered segments, and another key', async () => {
    const plain = randomBytes(3 * PLAINTEXT_SEGMENT + 500);
    const stored = await encrypt(plain, key);
    const header = headerLength(KEY_ID);
    const segments = [0, 1, 2, 3].map((i) => stored.subarray(header + i * CIPHERTEXT_SEGMENT, header + (i + 1) * CIPHERTEXT_SEGMENT));
    const cases: [string, Buffer][] = [
      ['cut after two segments', stored.subarray(0, header + 2 * CIPHERTEXT_SEGMENT)],
      ['cut inside the last segment', stored.subarray(0, stored.length - 5)],
      ['cut inside the header', stored.subarray(0, header - 3)],
      ['segments 1 and 2 swapped', Buffer.concat([stored.subarray(0, header), segments[0]!, segments[2]!, segments[1]!, segments[3]!])],
      ['a segment repeated', Buffer.concat([stored.subarray(0, header), segments[0]!, segments[0]!, segments[1]!, segments[2]!, segments[3]!])],
      ['nothing at all', Buffer.alloc(0)],
    ];
    for (const [what, altered] of cases) expect((await decryptUntilError(altered, key)).error, what).toBeInstanceOf(DecryptionError);
    await expect(decrypt(stored, newDataKey())).rejects.toBeInstanceOf(DecryptionError);
    await expect(decrypt(stored, key, undefined, 'another-key')).rejects.toThrow('written under another key');
  });

  it('decrypts any byte range from the segments it touches only', async () => {
    const size = 3 * PLAINTEXT_SEGMENT + 1234;
    const plain = randomBytes(size);
    const stored = await encrypt(plain, key);
    const header = parseHeader(stored)!;
    expect(header.keyId).toBe(KEY_ID);
    const ranges: [number, number][] = [
      [0, 0],
      [0, size - 1],
      [PLAINTEXT_SEGMENT - 1, PLAINTEXT_SEGMENT],
      [PLAINTEXT_SEGMENT, 2 * PLAINTEXT_SEGMENT - 1],
      [size - 1, size - 1],
      [2 * PLAINTEXT_SEGMENT + 7, size - 3],
    ];
    for (const [start, end] of ranges) {
      const span = segmentSpan(size, start, end, header.bytes.length);
      expect(span.cipherEnd - span.cipherStart + 1).toBeLessThanOrEqual(
        (Math.floor(end / PLAINTEXT_SEGMENT) - Math.floor(start / PLAINTEXT_SEGMENT) + 1) * CIPHERTEXT_SEGMENT,
      );
      const part = await collect(chunked(stored.subarray(span.cipherStart, span.cipherEnd + 1), [9000]).pipe(decryptRangeStream(key, header, span)));
      expect(part.equals(plain.subarray(start, end + 1)), `${start}-${end}`).toBe(true);
    }
    // A range whose segments were altered fails like the whole file does.
    const span = segmentSpan(size, 0, 10, header.bytes.length);
    const altered = Buffer.from(stored.subarray(span.cipherStart, span.cipherEnd + 1));
    altered[3]! ^= 0x80;
    await expect(collect(Readable.from([altered]).pipe(decryptRangeStream(key, header, span)))).rejects.toBeInstanceOf(DecryptionError);
    expect(() => segmentSpan(size, 5, size, header.bytes.length)).toThrow(RangeError);
  });

  it('keeps memory at a segment: 64 MiB goes through without the stream buffering it', async () => {
    const piece = randomBytes(1024 * 1024);
    let fed = 0;
    const source = new Readable({
      read() {
        this.push(fed++ < 64 ? piece : null);
      },
    });
    const hash = createHash('sha256');
    let largest = 0;
    const sink = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        largest = Math.max(largest, chunk.length);
        hash.update(chunk);
        callback();
      },
    });
    await pipeline(source, encryptStream(key, KEY_ID), decryptStream(key), sink);
    const expected = createHash('sha256');
    for (let i = 0; i < 64; i++) expected.update(piece);
    expect(hash.digest('hex')).toBe(expected.digest('hex'));
    expect(largest).toBeLessThanOrEqual(PLAINTEXT_SEGMENT);
  });
});

describe('wrapped data keys', () => {
  const master = { id: 'master-2026-11', key: randomBytes(32) };

  it('wraps a data key under the master key and names it; a new master key re-wraps it, the old one retired', () => {
    const dataKey = newDataKey();
    const wrapped = wrapDataKey(master, dataKey);
    expect(wrapped.includes(dataKey)).toBe(false);
    expect(wrappingKeyId(wrapped)).toBe('master-2026-11');
    expect(unwrapDataKey([master], wrapped).equals(dataKey)).toBe(true);
    const next = { id: 'master-2027-01', key: randomBytes(32) };
    const rewrapped = wrapDataKey(next, unwrapDataKey([master, next], wrapped));
    expect(unwrapDataKey([next], rewrapped).equals(dataKey)).toBe(true);
    expect(() => unwrapDataKey([next], wrapped)).toThrow('The master key master-2026-11 is not configured');
  });

  it('refuses a wrapped key that was altered or relabelled', () => {
    const wrapped = wrapDataKey(master, newDataKey());
    for (let at = 2 + master.id.length; at < wrapped.length; at++) {
      const altered = Buffer.from(wrapped);
      altered[at]! ^= 0x04;
      expect(() => unwrapDataKey([master], altered), `byte ${at}`).toThrow(DecryptionError);
    }
    // The same key under another name: the id is the associated data, so the tag no longer checks out.
    const impostor = { id: 'master-2026-12', key: master.key };
    const relabelled = Buffer.concat([Buffer.from([1, impostor.id.length]), Buffer.from(impostor.id), wrapped.subarray(2 + master.id.length)]);
    expect(() => unwrapDataKey([master, impostor], relabelled)).toThrow(DecryptionError);
  });
});
