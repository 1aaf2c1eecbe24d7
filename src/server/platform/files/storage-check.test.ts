import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { jpegBytes, tinyPng } from '../../../test/fixtures/images';
import { encryptStream, newDataKey } from '../crypto/streaming-aead';
import { scanObject } from './storage-check';

const encrypted = async (plain: Buffer) => {
  const chunks: Buffer[] = [];
  for await (const chunk of Readable.from([plain]).pipe(encryptStream(newDataKey(), 'mk-0123456789abcdef'))) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

/** The bytes as a stream of `size`-byte chunks. */
const inChunks = (bytes: Buffer, size: number) =>
  Readable.from(Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) => bytes.subarray(i * size, (i + 1) * size)));

describe('check-storage’s scan of one object', () => {
  it('passes an encrypted file of any size', async () => {
    const stored = await encrypted(randomBytes(300_000));
    expect(await scanObject(inChunks(stored, 4096))).toEqual({ size: stored.length, findings: [] });
  });

  it('finds a document stored as it is, and a signature inside an encrypted-looking object, across chunk boundaries, once each', async () => {
    const png = tinyPng();
    expect((await scanObject(inChunks(png, 3))).findings).toEqual([
      { what: 'PNG', offset: 0 },
      { what: 'not encrypted', offset: 0 },
    ]);
    const header = (await encrypted(Buffer.alloc(0))).subarray(0, 60);
    const jpeg = jpegBytes();
    const object = Buffer.concat([header, randomBytes(1000), jpeg, randomBytes(50), Buffer.from('%PDF-1.7')]);
    for (const size of [1, 5, 7, 4096]) {
      expect((await scanObject(inChunks(object, size))).findings, `chunks of ${size}`).toEqual([
        { what: 'JPEG', offset: 1060 },
        { what: 'PDF', offset: 1060 + jpeg.length + 50 },
      ]);
    }
  });

  it('calls an object without the header, or with a header that names no printable key, not encrypted', async () => {
    expect((await scanObject(Readable.from([Buffer.from('name,amount\nRent,2450\n')]))).findings).toEqual([{ what: 'not encrypted', offset: 0 }]);
    expect((await scanObject(Readable.from([Buffer.from([1, 3, 0, 0, 0, ...randomBytes(100)])]))).findings).toEqual([{ what: 'not encrypted', offset: 0 }]);
    expect((await scanObject(Readable.from([]))).findings).toEqual([{ what: 'not encrypted', offset: 0 }]);
  });
});
