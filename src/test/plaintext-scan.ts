import { FILE_SIGNATURES, signaturesIn, startFindings } from '../server/platform/files/storage-check';
import type { RawFile } from './storage';

/**
 * The proof of encryption's eye: looks through what a store holds, byte by
 * byte as it lies on disk, for any 16-byte window of a known plaintext and
 * for document signatures. Tests that upload known files (through the vault,
 * or through the upload routes) pass `api.storage.rawFiles(api.config)` and
 * the files' bytes, and expect no finding.
 *
 * Signatures are those of `check-storage` (storage-check.ts): the short magic
 * bytes (`%PDF`, `\x89PNG`, `\xFF\xD8\xFF`) where a file would begin, and
 * forms of five bytes or more anywhere; three or four bytes turn up in
 * random ciphertext often enough to make a test fail by chance, and each
 * plaintext's own magic bytes are in its first 16-byte window anyway.
 */

export interface PlaintextFinding {
  /** The raw file's path under the store's folder. */
  file: string;
  /** `window of plaintext N`, a document signature (PDF, PNG, JPEG), or `not encrypted`. */
  what: string;
  offset: number;
}

const WINDOW = 16;

/** Whether a raw file is one whole stored object (it must then begin with the encrypted header). */
function isWholeObject(name: string): boolean {
  if (name.startsWith('.tmp/')) return false; // the disk store's writes under way
  if (name.includes('._S3rver_')) return name.endsWith('._S3rver_object'); // s3rver: metadata, checksums, multipart parts
  return true;
}

export async function findPlaintext(files: AsyncIterable<RawFile>, plaintexts: readonly Buffer[]): Promise<PlaintextFinding[]> {
  // Every 16-byte window of every plaintext, as latin1 text, naming the plaintext it came from.
  const windows = new Map<string, number>();
  for (const [index, plain] of plaintexts.entries()) {
    for (let at = 0; at + WINDOW <= plain.length; at++) windows.set(plain.toString('latin1', at, at + WINDOW), index);
  }
  const findings: PlaintextFinding[] = [];
  for await (const { name, bytes } of files) {
    for (let at = 0; at + WINDOW <= bytes.length; at++) {
      const plain = windows.get(bytes.toString('latin1', at, at + WINDOW));
      if (plain !== undefined) {
        findings.push({ file: name, what: `window of plaintext ${plain}`, offset: at });
        at += WINDOW - 1; // one finding per run of matching bytes is enough
      }
    }
    const starts = isWholeObject(name)
      ? startFindings(bytes)
      : FILE_SIGNATURES.filter((signature) => signature.start.every((byte, i) => byte === null || bytes[i] === byte)).map((signature) => ({
          what: signature.type,
          offset: 0,
        }));
    for (const finding of [...starts, ...signaturesIn(bytes)]) findings.push({ file: name, ...finding });
  }
  return findings;
}
