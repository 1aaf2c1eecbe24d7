import { createHash } from 'node:crypto';
import { crc32, inflateSync } from 'node:zlib';
import type { LogoType } from '../../shared/schemas/teams';

/** No logo needs more pixels than this a side. */
const MAX_DIMENSION = 16_384;
/**
 * The most a PNG's image data may inflate to: ample for a 2048×2048 RGBA logo
 * (16 MiB). inflateSync allocates what it outputs, so this, not the 256 KB
 * upload limit, is what bounds the memory a decompression bomb can take.
 */
const MAX_PNG_RAW_BYTES = 32 * 1024 * 1024;

/**
 * The image type a logo really is, or null. A file passes only when the WHOLE
 * of it is one well-formed PNG, JPEG or WebP and nothing else: a valid header
 * followed by HTML, or an image with bytes after its end, is refused. The
 * declared Content-Type is never trusted; SVG is not accepted (it can carry
 * script). PNG image data is inflated (bounded) to check its size; JPEG and
 * WebP are checked for structure, not decoded.
 */
export function sniffLogoType(bytes: Buffer): LogoType | null {
  if (isPng(bytes)) return 'image/png';
  if (isJpeg(bytes)) return 'image/jpeg';
  if (isWebp(bytes)) return 'image/webp';
  return null;
}

export const logoVersion = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** The logo's public path: its version in the path makes it cacheable for good. */
export const logoPath = (teamId: string, sha256: string | null) => (sha256 ? `/api/team-logos/${teamId}/${sha256.slice(0, 16)}` : null);

// ---------------------------------------------------------------------------
// PNG (PNG Specification, Second Edition = ISO/IEC 15948:2003; section numbers below are its)
// ---------------------------------------------------------------------------

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Samples per pixel and allowed bit depths of each colour type (§11.2.2, Table 11.1). */
const PNG_COLOUR_TYPES: Record<number, { channels: number; depths: number[] }> = {
  0: { channels: 1, depths: [1, 2, 4, 8, 16] }, // greyscale
  2: { channels: 3, depths: [8, 16] }, // truecolour
  3: { channels: 1, depths: [1, 2, 4, 8] }, // indexed-colour
  4: { channels: 2, depths: [8, 16] }, // greyscale with alpha
  6: { channels: 4, depths: [8, 16] }, // truecolour with alpha
};

interface PngHeader {
  width: number;
  height: number;
  bitDepth: number;
  colourType: number;
  interlaced: boolean;
}

function isPng(bytes: Buffer): boolean {
  if (bytes.length < PNG_SIGNATURE.length || !bytes.subarray(0, PNG_SIGNATURE.length).equals(PNG_SIGNATURE)) return false; // §5.2
  let header: PngHeader | null = null;
  let palette = false;
  const imageData: Buffer[] = [];
  let imageDataEnded = false;
  let offset = PNG_SIGNATURE.length;
  while (offset < bytes.length) {
    // §5.3: length (≤ 2^31−1), type, data, then a CRC-32 of type and data.
    if (offset + 12 > bytes.length) return false;
    const length = bytes.readUInt32BE(offset);
    if (length > 0x7fffffff || offset + 12 + length > bytes.length) return false;
    const type = bytes.toString('latin1', offset + 4, offset + 8);
    const data = bytes.subarray(offset + 8, offset + 8 + length);
    if (crc32(bytes.subarray(offset + 4, offset + 8 + length)) !== bytes.readUInt32BE(offset + 8 + length)) return false;
    offset += 12 + length;
    // §5.3: type codes are ASCII letters; §5.4: the third one's case is reserved and must be upper.
    if (!/^[A-Za-z]{2}[A-Z][A-Za-z]$/.test(type)) return false;

    // §5.6: IHDR comes first and only once.
    if (type === 'IHDR') {
      if (header) return false;
      header = readPngHeader(data);
      if (!header) return false;
      continue;
    }
    if (!header) return false;

    switch (type) {
      case 'PLTE': // §5.6: at most one, before the image data
        if (palette || imageData.length > 0 || !isValidPalette(header, data)) return false;
        palette = true;
        break;
      case 'IDAT': // §5.6: IDAT chunks are consecutive
        if (imageDataEnded) return false;
        imageData.push(data);
        break;
      case 'IEND': // §11.2.5: empty, and last: nothing may follow it
        return (
          length === 0 &&
          offset === bytes.length &&
          imageData.length > 0 &&
          (palette || header.colourType !== 3) && // §11.2.3: indexed colour needs its palette
          isWholeImageData(header, Buffer.concat(imageData))
        );
      default:
        // §5.4: a decoder cannot skip a critical chunk it does not know, so neither do we.
        if (isCriticalChunk(type)) return false;
        if (imageData.length > 0) imageDataEnded = true;
    }
  }
  return false; // no IEND
}

/** §5.4: bit 5 of the first type byte clear (an upper-case letter) marks a critical chunk. */
const isCriticalChunk = (type: string) => (type.charCodeAt(0) & 0x20) === 0;

/** §11.2.2: IHDR's 13 bytes, with sane dimensions and a valid colour type and bit depth pair. */
function readPngHeader(data: Buffer): PngHeader | null {
  if (data.length !== 13) return null;
  const width = data.readUInt32BE(0);
  const height = data.readUInt32BE(4);
  const bitDepth = data.readUInt8(8);
  const colourType = data.readUInt8(9);
  const [compression, filter, interlace] = [data.readUInt8(10), data.readUInt8(11), data.readUInt8(12)];
  if (width < 1 || width > MAX_DIMENSION || height < 1 || height > MAX_DIMENSION) return null;
  if (!PNG_COLOUR_TYPES[colourType]?.depths.includes(bitDepth)) return null;
  // Method 0 is the only compression and filter method defined (§10.1, §9.1); interlace is 0 (none) or 1 (Adam7).
  if (compression !== 0 || filter !== 0 || (interlace !== 0 && interlace !== 1)) return null;
  return { width, height, bitDepth, colourType, interlaced: interlace === 1 };
}

/** §11.2.3: 1–256 RGB entries, no more than the bit depth can index, and none for greyscale images. */
function isValidPalette(header: PngHeader, data: Buffer): boolean {
  if (header.colourType === 0 || header.colourType === 4) return false;
  const entries = data.length / 3;
  if (!Number.isInteger(entries) || entries < 1 || entries > 256) return false;
  return header.colourType !== 3 || entries <= 2 ** header.bitDepth;
}

/**
 * Adam7's seven passes (§8.2): start column, start row, column step, row step.
 * A pass with no pixels contributes no scanlines at all.
 */
const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
] as const;

/** Each (sub-)image's rows and bytes per row, filter byte excluded (§7.2, §8.2). */
function pngScanlines(header: PngHeader): { rows: number; rowBytes: number }[] {
  const bitsPerPixel = (PNG_COLOUR_TYPES[header.colourType]?.channels ?? 0) * header.bitDepth;
  const passes = header.interlaced
    ? ADAM7.map(([x0, y0, dx, dy]) => ({ width: Math.ceil(Math.max(0, header.width - x0) / dx), height: Math.ceil(Math.max(0, header.height - y0) / dy) }))
    : [{ width: header.width, height: header.height }];
  return passes
    .filter((pass) => pass.width > 0 && pass.height > 0)
    .map((pass) => ({ rows: pass.height, rowBytes: Math.ceil((pass.width * bitsPerPixel) / 8) }));
}

/**
 * The IDATs together are one zlib stream (§10.1) that must inflate to exactly
 * the scanlines IHDR implies, each led by a filter type 0–4 (§7.2, §9.2):
 * short, long, corrupt, or with bytes after the stream's end, it is refused.
 */
function isWholeImageData(header: PngHeader, compressed: Buffer): boolean {
  const scanlines = pngScanlines(header);
  const expected = scanlines.reduce((sum, { rows, rowBytes }) => sum + rows * (1 + rowBytes), 0);
  if (expected > MAX_PNG_RAW_BYTES) return false;
  let raw: Buffer;
  let consumed: number;
  try {
    // maxOutputLength makes a stream that inflates past `expected` throw instead of allocating;
    // `info` exposes the engine, whose bytesWritten is how much input the stream itself used.
    const result = inflateSync(compressed, { maxOutputLength: expected, info: true }) as unknown as { buffer: Buffer; engine: { bytesWritten: number } };
    raw = result.buffer;
    consumed = result.engine.bytesWritten;
  } catch {
    return false;
  }
  if (raw.length !== expected || consumed !== compressed.length) return false;
  let offset = 0;
  for (const { rows, rowBytes } of scanlines) {
    for (let row = 0; row < rows; row++, offset += 1 + rowBytes) if ((raw[offset] ?? 0xff) > 4) return false;
  }
  return true;
}

// ---------------------------------------------------------------------------
// JPEG (ITU-T T.81 | ISO/IEC 10918-1; section numbers below are its)
// ---------------------------------------------------------------------------

/** Marker codes, the byte after 0xFF (Table B.1). */
const JPEG = { SOI: 0xd8, EOI: 0xd9, SOS: 0xda, TEM: 0x01, DHT: 0xc4, JPG: 0xc8, DAC: 0xcc } as const;

/** RST0–RST7: restart markers, standalone (Table B.1) and found inside entropy-coded data (B.1.1.5). */
const isRestart = (code: number) => code >= 0xd0 && code <= 0xd7;

/** SOF0–SOF15 (Table B.1), whose code range C0–CF also holds DHT, JPG and DAC. */
const isFrameHeader = (code: number) => code >= 0xc0 && code <= 0xcf && code !== JPEG.DHT && code !== JPEG.JPG && code !== JPEG.DAC;

function isJpeg(bytes: Buffer): boolean {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== JPEG.SOI) return false; // B.2.1: SOI first
  let framed = false;
  let scanned = false;
  let offset = 2;
  while (offset < bytes.length) {
    // B.1.1.2: a marker is 0xFF and a code; any number of 0xFF fill bytes may precede it.
    if (bytes[offset] !== 0xff) return false;
    while (bytes[offset + 1] === 0xff) offset++;
    const code = bytes[offset + 1];
    if (code === undefined) return false;
    offset += 2;

    // B.2.1: EOI ends the image, and here the file: nothing may follow it.
    if (code === JPEG.EOI) return scanned && offset === bytes.length;
    if (code === JPEG.SOI) return false;
    if (isRestart(code) || code === JPEG.TEM) continue; // standalone: no length (Table B.1)
    if (code <= 0xbf) return false; // 0x00 is not a marker; 02–BF are reserved (Table B.1)

    // B.1.1.4: every other marker starts a segment whose length counts itself but not the marker.
    if (offset + 2 > bytes.length) return false;
    const length = bytes.readUInt16BE(offset);
    if (length < 2 || offset + length > bytes.length) return false;
    const segment = bytes.subarray(offset + 2, offset + length);
    offset += length;

    if (isFrameHeader(code)) {
      // One frame: hierarchical files (several frames, Annex J) are not accepted.
      if (framed || !isValidFrameHeader(segment)) return false;
      framed = true;
    } else if (code === JPEG.SOS) {
      if (!framed || !isValidScanHeader(segment)) return false;
      const end = entropyCodedDataEnd(bytes, offset);
      if (end <= offset) return false; // a scan needs data; -1: the file ended inside it
      offset = end;
      scanned = true;
    }
  }
  return false; // no EOI
}

/** B.2.2: P, Y, X, Nf, then 3 bytes per component. Y may be 0 (set later by DNL) in T.81, but not here. */
function isValidFrameHeader(segment: Buffer): boolean {
  if (segment.length < 6) return false;
  const height = segment.readUInt16BE(1);
  const width = segment.readUInt16BE(3);
  const components = segment[5] ?? 0;
  return components >= 1 && segment.length === 6 + 3 * components && width >= 1 && width <= MAX_DIMENSION && height >= 1 && height <= MAX_DIMENSION;
}

/** B.2.3: Ns (1–4), 2 bytes per component, then Ss, Se and Ah/Al. */
function isValidScanHeader(segment: Buffer): boolean {
  const components = segment[0] ?? 0;
  return components >= 1 && components <= 4 && segment.length === 4 + 2 * components;
}

/**
 * Where the entropy-coded data after a scan header ends: at the first marker
 * that is not part of it. Inside it a 0xFF data byte is stuffed as 0xFF00
 * (B.1.1.5, F.1.2.3) and RSTm markers separate restart intervals. Returns -1
 * if the file ends first.
 */
function entropyCodedDataEnd(bytes: Buffer, start: number): number {
  let offset = start;
  while (offset < bytes.length) {
    if (bytes[offset] !== 0xff) {
      offset++;
      continue;
    }
    const next = bytes[offset + 1];
    if (next === undefined) return -1;
    if (next === 0x00 || isRestart(next)) offset += 2;
    else return offset;
  }
  return -1;
}

// ---------------------------------------------------------------------------
// WebP (RFC 9649, §2 "WebP Container Specification"; sections named below are its)
// ---------------------------------------------------------------------------

interface RiffChunk {
  fourcc: string;
  payload: Buffer;
}

function isWebp(bytes: Buffer): boolean {
  // "WebP File Header": 'RIFF', a size counting every byte after itself, 'WEBP'.
  if (bytes.length < 20 || bytes.toString('latin1', 0, 4) !== 'RIFF' || bytes.toString('latin1', 8, 12) !== 'WEBP') return false;
  if (bytes.readUInt32LE(4) !== bytes.length - 8) return false;

  // "RIFF File Format": chunks (FourCC, little-endian size, payload, a 0 pad byte
  // when the size is odd) must tile the rest of the file exactly.
  const chunks: RiffChunk[] = [];
  let offset = 12;
  while (offset < bytes.length) {
    if (offset + 8 > bytes.length) return false;
    const fourcc = bytes.toString('latin1', offset, offset + 4);
    const size = bytes.readUInt32LE(offset + 4);
    const end = offset + 8 + size + (size % 2);
    if (end > bytes.length) return false;
    if (size % 2 === 1 && bytes[end - 1] !== 0) return false;
    chunks.push({ fourcc, payload: bytes.subarray(offset + 8, offset + 8 + size) });
    offset = end;
  }

  const [first, ...rest] = chunks;
  if (!first) return false;
  // "Simple File Format (Lossy)" and "(Lossless)": the header and one image chunk, nothing else.
  if (first.fourcc === 'VP8 ') return rest.length === 0 && isValidVp8(first.payload);
  if (first.fourcc === 'VP8L') return rest.length === 0 && isValidVp8l(first.payload);
  // "Extended File Format": VP8X first, then chunks of which at least one carries an image.
  if (first.fourcc !== 'VP8X' || !isValidVp8x(first.payload)) return false;
  if (rest.some((chunk) => chunk.fourcc === 'VP8X')) return false;
  if (!rest.some((chunk) => ['VP8 ', 'VP8L', 'ANMF'].includes(chunk.fourcc))) return false;
  return rest.every((chunk) => (chunk.fourcc === 'VP8 ' ? isValidVp8(chunk.payload) : chunk.fourcc === 'VP8L' ? isValidVp8l(chunk.payload) : true));
}

/**
 * A VP8 key frame (RFC 6386 §9.1, §19.1): a 3-byte frame tag (bit 0 clear for
 * a key frame, then the first partition's size), the start code 9D 01 2A, and
 * 14-bit width and height. The first partition must fit in the chunk.
 */
function isValidVp8(payload: Buffer): boolean {
  if (payload.length < 10) return false;
  const tag = payload.readUIntLE(0, 3);
  if ((tag & 1) !== 0 || payload[3] !== 0x9d || payload[4] !== 0x01 || payload[5] !== 0x2a) return false;
  const firstPartitionSize = tag >>> 5;
  const width = payload.readUInt16LE(6) & 0x3fff;
  const height = payload.readUInt16LE(8) & 0x3fff;
  return width >= 1 && height >= 1 && 10 + firstPartitionSize <= payload.length;
}

/**
 * A VP8L header (RFC 9649 §3, "WebP Lossless Bitstream", its RIFF header): signature
 * 0x2F, 14-bit width − 1 and height − 1, an alpha hint, and a 3-bit version
 * that must be 0.
 */
function isValidVp8l(payload: Buffer): boolean {
  if (payload.length < 5 || payload[0] !== 0x2f) return false;
  const bits = payload.readUInt32LE(1);
  return bits >>> 29 === 0;
}

/** "Extended File Format": VP8X's payload is 10 bytes, ending with 24-bit canvas width − 1 and height − 1. */
function isValidVp8x(payload: Buffer): boolean {
  if (payload.length !== 10) return false;
  const width = payload.readUIntLE(4, 3) + 1;
  const height = payload.readUIntLE(7, 3) + 1;
  return width <= MAX_DIMENSION && height <= MAX_DIMENSION;
}
