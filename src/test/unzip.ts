import { buffer as collect } from 'node:stream/consumers';
import { fromBufferPromise } from 'yauzl';

export interface UnzippedEntry {
  name: string;
  bytes: Buffer;
  /** 0: stored; 8: deflated. */
  compressionMethod: number;
  mtime: Date;
}

/** Every entry of a zip, in order, read back by a real unzip library (yauzl: checks sizes and CRC-32, reads ZIP64). */
export async function unzip(zip: Buffer): Promise<UnzippedEntry[]> {
  const file = await fromBufferPromise(zip, { lazyEntries: true, strictFileNames: true, validateEntrySizes: true });
  const entries: UnzippedEntry[] = [];
  for await (const entry of file.eachEntry()) {
    const bytes = await collect(await file.openReadStreamPromise(entry));
    entries.push({ name: entry.fileName, bytes, compressionMethod: entry.compressionMethod, mtime: entry.getLastModDate({ timezone: 'UTC' }) });
  }
  return entries;
}

/** Whether the zip ends with ZIP64 end-of-central-directory records (their signatures, before the classic record). */
export function hasZip64End(zip: Buffer): boolean {
  const tail = zip.subarray(Math.max(0, zip.length - 200));
  return tail.includes(Buffer.from([0x50, 0x4b, 0x06, 0x06])) && tail.includes(Buffer.from([0x50, 0x4b, 0x06, 0x07]));
}
