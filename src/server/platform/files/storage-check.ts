import type { Readable } from 'node:stream';
import { DecryptionError, parseHeader } from '../crypto/streaming-aead';
import { ObjectNotFound, type ObjectStore } from '../storage/object-store';

/**
 * Does the store hold plaintext? What `npm run cli -- check-storage` runs
 * (docs/SECURITY.md): every object must begin with the encrypted-file header
 * (decision 012), where a document stored as it is would begin with its own
 * signature, and no object may contain a document's signature anywhere.
 *
 * Ciphertext is random, so a short pattern turns up in it by chance (three
 * given bytes about once in every 16 MiB), and a scan for one would accuse
 * every large file. A signature is therefore looked for anywhere only in a
 * form of at least five known bytes (a JPEG by its JFIF or Exif header); at
 * the start of an object, where the header must be, the short forms count.
 */

/** A signature's bytes; null matches any byte. */
type Pattern = readonly (number | null)[];

const bytesOf = (text: string): number[] => [...Buffer.from(text, 'latin1')];

export const FILE_SIGNATURES: readonly { type: string; start: Pattern; anywhere: Pattern[] }[] = [
  { type: 'PDF', start: bytesOf('%PDF'), anywhere: [bytesOf('%PDF-')] },
  { type: 'PNG', start: [0x89, ...bytesOf('PNG')], anywhere: [[0x89, ...bytesOf('PNG\r\n\x1a\n')]] },
  {
    type: 'JPEG',
    start: [0xff, 0xd8, 0xff],
    anywhere: [
      [0xff, 0xd8, 0xff, 0xe0, null, null, ...bytesOf('JFIF\0')],
      [0xff, 0xd8, 0xff, 0xe1, null, null, ...bytesOf('Exif\0')],
    ],
  },
];

const LONGEST = Math.max(...FILE_SIGNATURES.flatMap((signature) => signature.anywhere.map((pattern) => pattern.length)));

function matchesAt(bytes: Buffer, at: number, pattern: Pattern): boolean {
  if (at + pattern.length > bytes.length) return false;
  for (let i = 0; i < pattern.length; i++) {
    const want = pattern[i];
    if (want !== null && bytes[at + i] !== want) return false;
  }
  return true;
}

export interface Finding {
  /** PDF, PNG, JPEG, or `not encrypted` for an object without the header. */
  what: string;
  /** Where in the object. */
  offset: number;
}

/**
 * The signatures found anywhere in `bytes`, a piece of an object that starts
 * at `base` in it; one that ends at or before `seenUpTo` (bytes the piece
 * shares with the one before) was reported with that piece.
 */
export function signaturesIn(bytes: Buffer, base = 0, seenUpTo = 0): Finding[] {
  const found: Finding[] = [];
  for (const signature of FILE_SIGNATURES) {
    for (const pattern of signature.anywhere) {
      // Buffer.indexOf finds the fixed start natively; the rest (with its wildcards) is checked here.
      const prefix = Buffer.from(pattern.slice(0, pattern.indexOf(null) === -1 ? pattern.length : pattern.indexOf(null)) as number[]);
      for (let at = bytes.indexOf(prefix); at !== -1; at = bytes.indexOf(prefix, at + 1)) {
        if (at + pattern.length > seenUpTo && matchesAt(bytes, at, pattern)) found.push({ what: signature.type, offset: base + at });
      }
    }
  }
  return found.sort((a, b) => a.offset - b.offset);
}

/** What is wrong with how an object begins: not Coverly's header, or a document's signature. */
export function startFindings(head: Buffer): Finding[] {
  const found: Finding[] = FILE_SIGNATURES.filter((signature) => matchesAt(head, 0, signature.start)).map((signature) => ({ what: signature.type, offset: 0 }));
  let header;
  try {
    header = parseHeader(head);
  } catch (error) {
    if (!(error instanceof DecryptionError)) throw error;
  }
  if (!header || !/^[\x21-\x7e]+$/.test(header.keyId)) found.push({ what: 'not encrypted', offset: 0 });
  return found;
}

/** Scans one object as it streams by: memory stays at one chunk whatever its size. */
export async function scanObject(body: Readable): Promise<{ size: number; findings: Finding[] }> {
  const findings: Finding[] = [];
  let size = 0;
  let head = Buffer.alloc(0);
  let carry = Buffer.alloc(0);
  for await (const chunk of body as AsyncIterable<Buffer>) {
    if (head.length < 300) head = Buffer.concat([head, chunk.subarray(0, 300 - head.length)]);
    // The chunk behind the last bytes of the one before, so a signature across the two is seen.
    const piece = Buffer.concat([carry, chunk]);
    findings.push(...signaturesIn(piece, size - carry.length, carry.length));
    size += chunk.length;
    carry = piece.subarray(Math.max(0, piece.length - (LONGEST - 1)));
  }
  // A signature at the start is found both ways; say it once.
  const unique = new Map([...startFindings(head), ...findings].map((finding) => [`${finding.what}@${finding.offset}`, finding]));
  return { size, findings: [...unique.values()] };
}

export interface StorageReport {
  objects: number;
  bytes: number;
  /** Objects that look like plaintext, with what was found where. */
  suspicious: { key: string; findings: Finding[] }[];
}

/** Reads every object of the store and reports any that is not encrypted or carries a document signature. */
export async function checkStorage(store: ObjectStore, onProgress?: (objects: number) => void): Promise<StorageReport> {
  const report: StorageReport = { objects: 0, bytes: 0, suspicious: [] };
  for await (const { key } of store.list()) {
    // Deleted since it was listed (the sweep, a deleted loan): nothing left to check.
    const body = await store.get(key).catch((error: unknown) => (error instanceof ObjectNotFound ? null : Promise.reject(error)));
    if (!body) continue;
    const { size, findings } = await scanObject(body);
    report.objects++;
    report.bytes += size;
    if (findings.length > 0) report.suspicious.push({ key, findings });
    if (report.objects % 1000 === 0) onProgress?.(report.objects);
  }
  return report;
}
