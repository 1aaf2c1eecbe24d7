import { randomBytes } from 'node:crypto';
import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { hasZip64End, unzip } from '../../test/unzip';
import { storedZip, type ZipEntry } from './stored-zip';

const mtime = new Date('2026-11-24T17:21:00Z');

/** Reads a stream to its end, or to the error that ends it (with what came before). */
async function drain(stream: Readable): Promise<{ bytes: Buffer; error: Error | null }> {
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return { bytes: Buffer.concat(chunks), error: null };
  } catch (error) {
    return { bytes: Buffer.concat(chunks), error: error as Error };
  }
}

/** A body given in pieces, as a decrypting file stream gives it. */
const bodyOf = (bytes: Buffer) => Readable.from([bytes.subarray(0, 1000), bytes.subarray(1000)].filter((part) => part.length > 0));

/**
 * The length of a zip of stored entries (yazl's layout: a data descriptor
 * after each streamed body, none after one given in memory, the Info-ZIP
 * timestamp in the central directory),
 * counted from the format's specification (APPNOTE 6.3.10 §4.3), not from
 * yazl: ZIP64 data descriptors and extra fields for an entry whose size or
 * offset passes 0xfffffffe, and ZIP64 end records once anything does.
 */
function specifiedLength(entries: { name: string; size: number; inMemory?: boolean }[]): number {
  let offset = 0;
  let central = 0;
  for (const { name, size, inMemory = false } of entries) {
    const nameBytes = Buffer.byteLength(name);
    const zip64 = size > 0xfffffffe || offset > 0xfffffffe;
    offset += 30 + nameBytes + size + (inMemory ? 0 : zip64 ? 24 : 16);
    central += 46 + nameBytes + 9 + (zip64 ? 28 : 0);
  }
  const zip64End = offset >= 0xffffffff || central >= 0xffff;
  return offset + central + (zip64End ? 56 + 20 : 0) + 22;
}

describe('stored zip', () => {
  it('streams every entry stored, in order, in exactly the length it announced first, opening one body at a time', async () => {
    const first = randomBytes(150_000);
    const second = randomBytes(70_001);
    let open = 0;
    let mostOpen = 0;
    const opened: string[] = [];
    const lazy = (name: string, bytes: Buffer): ZipEntry => ({
      name,
      mtime,
      size: bytes.length,
      open: async () => {
        opened.push(name);
        mostOpen = Math.max(mostOpen, ++open);
        const body = bodyOf(bytes);
        body.once('end', () => open--);
        return body;
      },
    });
    const cover = Buffer.from('%PDF-1.7 cover');
    const zip = await storedZip([
      { name: '00 Cover sheet.pdf', mtime, bytes: cover },
      lazy('01 Bank statements/März.pdf', first),
      lazy('02 Lease/lease.pdf', second),
    ]);
    expect(opened).toEqual(['01 Bank statements/März.pdf']);
    const { bytes, error } = await drain(zip.stream);
    expect(error).toBeNull();
    expect(bytes.length).toBe(zip.size);
    expect(mostOpen).toBe(1);
    const entries = await unzip(bytes);
    expect(entries.map((entry) => [entry.name, entry.compressionMethod])).toEqual([
      ['00 Cover sheet.pdf', 0],
      ['01 Bank statements/März.pdf', 0],
      ['02 Lease/lease.pdf', 0],
    ]);
    expect(entries[0]!.bytes.equals(cover)).toBe(true);
    expect(entries[1]!.bytes.equals(first)).toBe(true);
    expect(entries[2]!.bytes.equals(second)).toBe(true);
    expect(entries[1]!.mtime.toISOString()).toBe(mtime.toISOString());
    expect(bytes.length).toBe(specifiedLength(entries.map((entry, index) => ({ name: entry.name, size: entry.bytes.length, inMemory: index === 0 }))));
  });

  it('writes ZIP64 records when told to, still of the length announced, and a real reader takes them', async () => {
    const body = randomBytes(20_000);
    const zip = await storedZip(
      [
        { name: 'a.pdf', mtime, bytes: Buffer.from('%PDF-') },
        { name: 'b/c.png', mtime, size: body.length, open: async () => bodyOf(body) },
      ],
      { forceZip64: true },
    );
    const { bytes } = await drain(zip.stream);
    expect(bytes.length).toBe(zip.size);
    expect(hasZip64End(bytes)).toBe(true);
    const entries = await unzip(bytes);
    expect(entries.map((entry) => entry.name)).toEqual(['a.pdf', 'b/c.png']);
    expect(entries[1]!.bytes.equals(body)).toBe(true);
  });

  it('knows the length of a package past 4 GiB before reading any of it, with ZIP64 where the format needs it', async () => {
    const GiB = 1024 ** 3;
    const sizes = [
      { name: '01 Appraisal/appraisal.pdf', size: 3 * GiB },
      { name: '02 Operating statement/t12.xlsx', size: 2 * GiB },
      { name: '03 Rent roll/rent roll.pdf', size: 5 * GiB },
    ];
    const bodies: PassThrough[] = [];
    const zip = await storedZip(
      sizes.map(({ name, size }) => ({
        name,
        mtime,
        size,
        open: async () => {
          const body = new PassThrough();
          bodies.push(body);
          return body;
        },
      })),
    );
    expect(zip.size).toBeGreaterThan(10 * GiB);
    expect(zip.size).toBe(specifiedLength(sizes));
    // Without ZIP64 the third entry's size and offset, and the directory's offset, would not fit.
    expect(zip.size - specifiedLength(sizes.map(({ name }) => ({ name, size: 0 })))).toBe(10 * GiB + 8 + 28 + 56 + 20);
    // Nobody reads it: going away closes the body the zip had opened.
    zip.stream.destroy();
    await new Promise((resolve) => setImmediate(resolve));
    expect(bodies.length).toBe(1);
    expect(bodies[0]!.destroyed).toBe(true);
  });

  it('breaks the stream, never finishing the zip, when a body fails half-way', async () => {
    const errors: [string, string | null][] = [];
    const failing = new PassThrough();
    const zip = await storedZip(
      [
        { name: '00 Cover sheet.pdf', mtime, bytes: Buffer.from('%PDF-') },
        {
          name: '01 Lease/lease.pdf',
          mtime,
          size: 200_000,
          open: async () => {
            failing.write(randomBytes(65_536));
            setTimeout(() => failing.destroy(new Error('segment 2 failed authentication')), 20);
            return failing;
          },
        },
        { name: '02 Never/reached.pdf', mtime, size: 10, open: async () => Readable.from([Buffer.alloc(10)]) },
      ],
      { onError: (error, entry) => errors.push([error.message, entry]) },
    );
    const { bytes, error } = await drain(zip.stream);
    expect(error?.message).toBe('segment 2 failed authentication');
    expect(errors).toEqual([['segment 2 failed authentication', '01 Lease/lease.pdf']]);
    expect(bytes.length).toBeLessThan(zip.size);
    await expect(unzip(bytes)).rejects.toThrow();
  });

  it('breaks the stream when a body is shorter than announced, or cannot be opened', async () => {
    const short = await storedZip([{ name: 'short.pdf', mtime, size: 5000, open: async () => Readable.from([Buffer.alloc(4000)]) }]);
    const cut = await drain(short.stream);
    expect(cut.error?.message).toMatch(/unexpected number of bytes/);
    expect(cut.bytes.length).toBeLessThan(short.size);

    const missing = await storedZip([
      { name: 'a.pdf', mtime, bytes: Buffer.from('%PDF-') },
      {
        name: 'gone.pdf',
        mtime,
        size: 10,
        open: () => Promise.reject(new Error('No such object')),
      },
    ]);
    const gone = await drain(missing.stream);
    expect(gone.error?.message).toBe('No such object');
    expect(gone.bytes.length).toBeLessThan(missing.size);
  });
});
