import type { PassThrough, Readable } from 'node:stream';
import { ZipFile } from 'yazl';

/** One entry of a stored zip: bytes already in memory, or a body of a known size opened only when its turn comes. */
export type ZipEntry = { name: string; mtime: Date } & ({ bytes: Buffer } | { size: number; open: () => Promise<Readable> });

export interface StoredZip {
  /** The exact number of bytes `stream` will give, known before the first of them. */
  size: number;
  stream: Readable;
}

export interface StoredZipOptions {
  /** ZIP64 records even where the sizes do not need them (tests; yazl adds them by itself when needed). */
  forceZip64?: boolean;
  /** Told when an entry's body fails or the zip cannot be finished; the stream is destroyed with the error. */
  onError?: (error: Error, entryName: string | null) => void;
}

/**
 * A zip of `entries`, in order, every one stored (not deflated: documents are
 * already compressed, and a stored entry's size is its body's), so its whole
 * length is known before a byte is sent (decision 015). yazl writes ZIP64
 * records wherever a size or an offset needs them. Each body is opened when
 * the zip reaches it and read once; at most one is open at a time, and
 * nothing is held but the in-memory entries and the stream's buffers.
 *
 * A body that fails (a stored file that fails authentication, a missing
 * object) or one whose length is not the size announced destroys the stream
 * with the error: whoever reads it sees a broken download, never a zip with
 * wrong bytes in it. Destroying the stream (the client went away) closes the
 * body being read.
 */
export function storedZip(entries: readonly ZipEntry[], options: StoredZipOptions = {}): Promise<StoredZip> {
  const zip = new ZipFile();
  const output = zip.outputStream as PassThrough;
  const forceZip64Format = options.forceZip64 ?? false;
  let current: { name: string; body: Readable } | null = null;
  let failed = false;

  const fail = (error: Error, entryName: string | null) => {
    if (failed) return;
    failed = true;
    options.onError?.(error, entryName);
    current?.body.destroy();
    output.destroy(error);
  };
  // yazl reports a body that could not be opened, or whose length differs from its size, here.
  zip.on('error', (error: Error) => fail(error, current?.name ?? null));
  output.on('close', () => current?.body.destroy());

  for (const entry of entries) {
    const common = { mtime: entry.mtime, mode: 0o100644, compress: false, forceZip64Format };
    if ('bytes' in entry) {
      zip.addBuffer(entry.bytes, entry.name, common);
      continue;
    }
    zip.addReadStreamLazy(entry.name, { ...common, size: entry.size }, (callback) => {
      entry.open().then(
        (body) => {
          if (output.destroyed) {
            body.destroy();
            return;
          }
          current = { name: entry.name, body };
          // yazl pipes the body, and a pipe does not pass errors on: without this a failed body would stall the zip.
          body.once('error', (error) => fail(error, entry.name));
          callback(null, body);
        },
        // The zip stops here (yazl then waits for a body that never comes, and the stream is gone).
        (error: Error) => fail(error, entry.name),
      );
    });
  }

  return new Promise((resolve, reject) => {
    const end = zip.end as (options: { forceZip64Format: boolean; comment: string }, sized: (size: number) => void) => void;
    end.call(zip, { forceZip64Format, comment: '' }, (size) => {
      if (size >= 0) return resolve({ size, stream: output });
      // Only a deflated entry or a body without a size makes yazl unable to tell; neither is ever added here.
      const error = new Error('The zip length could not be computed in advance');
      output.destroy(error);
      reject(error);
    });
  });
}
