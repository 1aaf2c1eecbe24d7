import type { FastifyReply } from 'fastify';
import type { Readable } from 'node:stream';

/** An inclusive byte range, as a `Range: bytes=…` header asks for it. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * The one range a `Range` header asks for in a file of `size` bytes (RFC 9110
 * §14.1.2): null for no header or one this server answers whole (several
 * ranges, another unit, a malformed value), 'unsatisfiable' for a range that
 * starts past the end.
 */
export function parseRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | null {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return null;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0) return 'unsatisfiable';
    return size === 0 ? 'unsatisfiable' : { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (!Number.isSafeInteger(start) || start >= size) return 'unsatisfiable';
  if (end < start) return null;
  return { start, end };
}

/** `Content-Disposition` with the original name (RFC 6266): a plain ASCII `filename` and the exact one as UTF-8 in `filename*`. */
export function contentDisposition(kind: 'attachment' | 'inline', name: string): string {
  const fallback = name
    .normalize('NFKD')
    .replace(/[^\x20-\x7e]/g, '')
    .replace(/["\\%;]/g, '_')
    .trim();
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${fallback || 'document'}"; filename*=UTF-8''${encoded}`;
}

/**
 * Sends a stored file's bytes so they can never run in our origin: the type
 * the content was sniffed as, `nosniff`, a CSP sandbox, and the original name
 * in Content-Disposition. `body` is the plaintext of `range` (or all of it).
 */
export function sendFileBytes(
  reply: FastifyReply,
  file: { name: string; size: number; type: string },
  body: Readable,
  { disposition, range }: { disposition: 'attachment' | 'inline'; range: ByteRange | null },
) {
  reply
    .header('content-type', file.type)
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', 'sandbox')
    .header('content-disposition', contentDisposition(disposition, file.name))
    .header('accept-ranges', 'bytes')
    .header('cache-control', 'private, no-store');
  if (range) {
    reply
      .status(206)
      .header('content-range', `bytes ${range.start}-${range.end}/${file.size}`)
      .header('content-length', range.end - range.start + 1);
  } else {
    reply.header('content-length', file.size);
  }
  return reply.send(body);
}

/** 416 for a range past the end of the file. */
export function sendUnsatisfiableRange(reply: FastifyReply, size: number) {
  return reply.status(416).header('content-range', `bytes */${size}`).header('accept-ranges', 'bytes').send();
}
