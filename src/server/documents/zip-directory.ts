/**
 * Reads a ZIP file's central directory from the end of the file (PKWARE
 * APPNOTE 6.3.10: §4.3.16 end of central directory record, §4.3.14–15 its
 * ZIP64 forms, §4.3.12 central directory headers, §4.5.3 the ZIP64 extra
 * field). DOCX and XLSX files are ZIP packages; the inspector checks what they
 * hold, and that what this directory says matches the entries as they
 * really are (zip-contents.ts walks and unpacks them as they stream past).
 */

export interface ZipEntry {
  name: string;
  /** What the directory says it unpacks to (checked against the real thing: zip-contents.ts). */
  uncompressedSize: number;
  compressedSize: number;
  /** Where its local header starts. */
  localOffset: number;
  /** Bit 0 of the general purpose flags: the entry is encrypted. */
  encrypted: boolean;
}

export type ZipDirectory =
  | { ok: true; entries: ZipEntry[]; uncompressedTotal: number; directoryOffset: number }
  /** `no_end`: no end record that reaches exactly the end of the file (cut off, or something appended); `too_large`: the directory does not fit in the bytes kept. */
  | { ok: false; problem: 'no_end' | 'damaged' | 'too_large' };

const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EOCD = 0x06064b50;
const CENTRAL_HEADER = 0x02014b50;
const EOCD_LENGTH = 22;

/** Where an end of central directory record starts whose comment ends exactly at the end of `bytes`, or -1. */
export function findEndRecord(bytes: Buffer): number {
  const signature = Buffer.from('504b0506', 'hex');
  // (A negative start would count from the end, hence the checks before each search.)
  let at = bytes.length >= EOCD_LENGTH ? bytes.lastIndexOf(signature, bytes.length - EOCD_LENGTH) : -1;
  while (at >= 0 && bytes.length - at <= EOCD_LENGTH + 0xffff) {
    if (at + EOCD_LENGTH + bytes.readUInt16LE(at + 20) === bytes.length) return at;
    at = at > 0 ? bytes.lastIndexOf(signature, at - 1) : -1;
  }
  return -1;
}

/** The central directory of a ZIP file of `fileSize` bytes whose last `tail.length` bytes are `tail`. */
export function readZipDirectory(tail: Buffer, fileSize: number): ZipDirectory {
  const end = findEndRecord(tail);
  if (end === -1) return { ok: false, problem: 'no_end' };
  try {
    return readFrom(tail, fileSize - tail.length, end);
  } catch (error) {
    if (error instanceof RangeError) return { ok: false, problem: 'damaged' }; // a length pointing past the bytes
    throw error;
  }
}

function readFrom(tail: Buffer, base: number, end: number): ZipDirectory {
  const damaged = { ok: false, problem: 'damaged' } as const;
  if (tail.readUInt16LE(end + 4) !== 0 || tail.readUInt16LE(end + 6) !== 0 || tail.readUInt16LE(end + 8) !== tail.readUInt16LE(end + 10)) return damaged; // split archives
  let count = tail.readUInt16LE(end + 10);
  let size = tail.readUInt32LE(end + 12);
  let offset = tail.readUInt32LE(end + 16);
  let directoryEnd = base + end;
  if (count === 0xffff || size === 0xffffffff || offset === 0xffffffff) {
    const locator = end - 20;
    if (locator < 0 || tail.readUInt32LE(locator) !== ZIP64_LOCATOR) return locator < 0 && base > 0 ? { ok: false, problem: 'too_large' } : damaged;
    const record = safeNumber(tail.readBigUInt64LE(locator + 8)) - base;
    if (record < 0) return { ok: false, problem: 'too_large' };
    if (tail.readUInt32LE(record) !== ZIP64_EOCD || record + 12 + safeNumber(tail.readBigUInt64LE(record + 4)) !== locator) return damaged;
    count = safeNumber(tail.readBigUInt64LE(record + 32));
    size = safeNumber(tail.readBigUInt64LE(record + 40));
    offset = safeNumber(tail.readBigUInt64LE(record + 48));
    directoryEnd = base + record;
  }
  // The directory sits right before its end record: nothing hidden between them.
  if (offset + size !== directoryEnd) return damaged;
  if (offset < base) return { ok: false, problem: 'too_large' };
  const entries: ZipEntry[] = [];
  let uncompressedTotal = 0;
  let at = offset - base;
  for (let index = 0; index < count; index++) {
    if (tail.readUInt32LE(at) !== CENTRAL_HEADER) return damaged;
    const flags = tail.readUInt16LE(at + 8);
    const nameLength = tail.readUInt16LE(at + 28);
    const extraLength = tail.readUInt16LE(at + 30);
    const next = at + 46 + nameLength + extraLength + tail.readUInt16LE(at + 32);
    if (base + next > directoryEnd) return damaged;
    const [uncompressedSize, compressedSize, localOffset] = zip64Values(tail, at, tail.subarray(at + 46 + nameLength, at + 46 + nameLength + extraLength));
    if (localOffset >= offset) return damaged;
    // Bit 11: the name is UTF-8; otherwise code page 437, of which OOXML part names use only ASCII.
    const name = tail.toString(flags & 0x800 ? 'utf8' : 'latin1', at + 46, at + 46 + nameLength);
    entries.push({ name, uncompressedSize, compressedSize, localOffset, encrypted: (flags & 1) === 1 });
    uncompressedTotal += uncompressedSize;
    at = next;
  }
  if (base + at !== directoryEnd) return damaged;
  return { ok: true, entries, uncompressedTotal, directoryOffset: offset };
}

/** The entry's uncompressed and compressed sizes and local header offset, from the ZIP64 extra field where the header says 0xFFFFFFFF. */
function zip64Values(tail: Buffer, at: number, extra: Buffer): [number, number, number] {
  const fields = [tail.readUInt32LE(at + 24), tail.readUInt32LE(at + 20), tail.readUInt32LE(at + 42)];
  if (!fields.includes(0xffffffff)) return [fields[0]!, fields[1]!, fields[2]!];
  for (let i = 0; i + 4 <= extra.length; i += 4 + extra.readUInt16LE(i + 2)) {
    if (extra.readUInt16LE(i) !== 0x0001) continue;
    // Only the values the header left at 0xFFFFFFFF are there, in this order.
    let value = i + 4;
    for (const [k, field] of fields.entries()) {
      if (field !== 0xffffffff) continue;
      fields[k] = safeNumber(extra.readBigUInt64LE(value));
      value += 8;
    }
    return [fields[0]!, fields[1]!, fields[2]!];
  }
  throw new RangeError('ZIP64 extra field missing');
}

function safeNumber(value: bigint): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError('ZIP64 value too large');
  return Number(value);
}
