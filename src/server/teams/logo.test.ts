import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  gifBytes,
  jpegBytes,
  PNG_SIGNATURE,
  pngChunk,
  pngImage,
  pngOfSize,
  svgBytes,
  tinyPng,
  webpBytes,
  webpExtendedBytes,
  webpLossyBytes,
} from '../../test/fixtures/images';
import { sniffLogoType } from './logo';

const html = Buffer.from('<html><script>alert(1)</script></html>');
const bytes = (...values: number[]) => Buffer.from(values);

// PNG pieces, put together by hand so each test breaks exactly one rule.
function ihdr(width: number, height: number, bitDepth = 8, colourType = 6, interlace = 0): Buffer {
  const data = Buffer.alloc(13);
  data.writeUInt32BE(width, 0);
  data.writeUInt32BE(height, 4);
  data.writeUInt8(bitDepth, 8);
  data.writeUInt8(colourType, 9);
  data.writeUInt8(interlace, 12);
  return pngChunk('IHDR', data);
}
const png = (...chunks: Buffer[]) => Buffer.concat([PNG_SIGNATURE, ...chunks]);
const idat = (raw: Buffer) => pngChunk('IDAT', deflateSync(raw));
const IEND = pngChunk('IEND', Buffer.alloc(0));
/** One RGBA pixel, led by filter type 0: the scanline of a 1×1 RGBA image. */
const PIXEL = bytes(0, 29, 78, 216, 255);

/** `buffer` with the byte at `at` (negative: from the end) XOR-ed, so it no longer matches its CRC or structure. */
function flipped(buffer: Buffer, at: number): Buffer {
  const copy = Buffer.from(buffer);
  const index = at < 0 ? copy.length + at : at;
  copy.writeUInt8((copy[index] ?? 0) ^ 0x01, index);
  return copy;
}

// JPEG pieces: the fixture is SOI … SOS header, one byte of entropy-coded data, EOI.
const jpeg = jpegBytes();
const EOI = bytes(0xff, 0xd9);
const jpegUpToScanData = jpeg.subarray(0, jpeg.length - 3);
const jpegWithScanData = (data: Buffer) => Buffer.concat([jpegUpToScanData, data, EOI]);
const sosAt = jpeg.indexOf(bytes(0xff, 0xda));

// WebP pieces: a RIFF header whose size field is right unless told otherwise.
function webpChunk(fourcc: string, payload: Buffer, pad = 0): Buffer {
  const size = Buffer.alloc(4);
  size.writeUInt32LE(payload.length);
  return Buffer.concat([Buffer.from(fourcc, 'latin1'), size, payload, payload.length % 2 ? bytes(pad) : Buffer.alloc(0)]);
}
function riff(chunks: Buffer[], sizeDelta = 0): Buffer {
  const body = Buffer.concat([Buffer.from('WEBP', 'latin1'), ...chunks]);
  const size = Buffer.alloc(4);
  size.writeUInt32LE(body.length + sizeDelta);
  return Buffer.concat([Buffer.from('RIFF', 'latin1'), size, body]);
}
const VP8L = webpBytes().subarray(20, 20 + 13); // the lossless fixture's bitstream
const VP8 = webpLossyBytes().subarray(20, 20 + 22); // the lossy fixture's bitstream
/** A VP8X payload: feature flags (0x04: XMP metadata present), 3 reserved bytes, a 1×1 canvas. */
const vp8x = (flags = 0) => bytes(flags, 0, 0, 0, 0, 0, 0, 0, 0, 0);

describe('sniffLogoType: whole, well-formed images', () => {
  it.each([
    ['a 1×1 RGBA PNG', tinyPng()],
    ['a PNG padded with a tEXt comment to 256 KB', pngOfSize(256 * 1024)],
    [
      'a 2×2 indexed PNG, 2 bits a pixel, with its palette',
      pngImage({ width: 2, height: 2, bitDepth: 2, colourType: 3 }, bytes(0, 0b0001_0000, 0, 0b1000_0000), [
        pngChunk('PLTE', bytes(255, 0, 0, 0, 255, 0, 0, 0, 255)),
      ]),
    ],
    ['a 9×1 1-bit greyscale PNG (a row of 2 bytes)', pngImage({ width: 9, height: 1, bitDepth: 1, colourType: 0 }, bytes(0, 0xaa, 0x80))],
    [
      'a 2×1 16-bit truecolour PNG with a Paeth-filtered row',
      pngImage({ width: 2, height: 1, bitDepth: 16, colourType: 2 }, Buffer.concat([bytes(4), Buffer.alloc(12, 7)])),
    ],
    // Adam7, 8×8 greyscale: passes of 1×1, 1×1, 2×1, 2×2, 4×2, 4×4 and 8×4 pixels make
    // 1·2 + 1·2 + 1·3 + 2·3 + 2·5 + 4·5 + 4·9 = 79 bytes with their filter bytes.
    ['an interlaced 8×8 greyscale PNG', pngImage({ width: 8, height: 8, bitDepth: 8, colourType: 0, interlaced: true }, Buffer.alloc(79))],
    [
      'a PNG whose image data is split over two IDAT chunks',
      png(ihdr(1, 1), pngChunk('IDAT', deflateSync(PIXEL).subarray(0, 4)), pngChunk('IDAT', deflateSync(PIXEL).subarray(4)), IEND),
    ],
  ])('accepts %s as image/png', (_label, file) => {
    expect(sniffLogoType(file)).toBe('image/png');
  });

  it.each([
    ['a 1×1 baseline JPEG', jpeg],
    [
      'a JPEG whose scan holds stuffed 0xFF bytes and restart markers',
      jpegWithScanData(bytes(0x12, 0xff, 0x00, 0x34, 0xff, 0xd0, 0x56, 0xff, 0xd1, 0xff, 0x00)),
    ],
    [
      'a JPEG with fill bytes before its markers',
      Buffer.concat([jpeg.subarray(0, sosAt), bytes(0xff, 0xff), jpeg.subarray(sosAt, -2), bytes(0xff, 0xff), EOI]),
    ],
    ['a JPEG with a comment segment after its scan', Buffer.concat([jpeg.subarray(0, -2), bytes(0xff, 0xfe, 0x00, 0x04), Buffer.from('hi'), EOI])],
  ])('accepts %s as image/jpeg', (_label, file) => {
    expect(sniffLogoType(file)).toBe('image/jpeg');
  });

  it.each([
    ['a 1×1 lossless WebP (VP8L)', webpBytes()],
    ['a 1×1 lossy WebP (VP8)', webpLossyBytes()],
    ['a 1×1 extended WebP (VP8X, ALPH, VP8)', webpExtendedBytes()],
    [
      'an extended WebP with an odd-sized metadata chunk, padded',
      riff([webpChunk('VP8X', vp8x(0x04)), webpChunk('VP8L', VP8L), webpChunk('XMP ', Buffer.from('<x/>!'))]),
    ],
  ])('accepts %s as image/webp', (_label, file) => {
    expect(sniffLogoType(file)).toBe('image/webp');
  });
});

describe('sniffLogoType: refusals', () => {
  it.each([
    ['PNG signature + HTML', Buffer.concat([PNG_SIGNATURE, html])],
    ['PNG signature and IHDR + HTML', Buffer.concat([PNG_SIGNATURE, ihdr(1, 1), html])],
    ['a valid PNG with HTML after IEND', Buffer.concat([tinyPng(), html])],
    ['a valid PNG with one byte after IEND', Buffer.concat([tinyPng(), bytes(0)])],
    ['a valid PNG followed by a second one', Buffer.concat([tinyPng(), tinyPng()])],
    ['a PNG with a corrupted CRC', flipped(tinyPng(), -1)],
    ['a PNG with a data byte changed under its CRC', flipped(tinyPng(), PNG_SIGNATURE.length + 8)],
    ['a PNG without IEND', tinyPng().subarray(0, -12)],
    ['a PNG whose IDAT inflates short (one pixel for a 2×1 image)', png(ihdr(2, 1), idat(PIXEL), IEND)],
    ['a PNG whose IDAT inflates long (two rows for a 1×1 image)', png(ihdr(1, 1), idat(Buffer.concat([PIXEL, PIXEL])), IEND)],
    ['an interlaced PNG with a non-interlaced image’s data', pngImage({ width: 8, height: 8, bitDepth: 8, colourType: 0, interlaced: true }, Buffer.alloc(72))],
    ['a PNG whose zlib stream is cut short', png(ihdr(1, 1), pngChunk('IDAT', deflateSync(PIXEL).subarray(0, -3)), IEND)],
    ['a PNG with HTML after its zlib stream, inside IDAT', png(ihdr(1, 1), pngChunk('IDAT', Buffer.concat([deflateSync(PIXEL), html])), IEND)],
    ['a PNG with an unknown filter type', png(ihdr(1, 1), idat(bytes(5, 1, 2, 3, 4)), IEND)],
    ['a PNG with no IDAT', png(ihdr(1, 1), IEND)],
    ['a PNG not starting with IHDR', png(idat(PIXEL), ihdr(1, 1), IEND)],
    ['a PNG with two IHDRs', png(ihdr(1, 1), ihdr(1, 1), idat(PIXEL), IEND)],
    ['a PNG with IEND carrying data', png(ihdr(1, 1), idat(PIXEL), pngChunk('IEND', html))],
    [
      'a PNG with IDATs split by another chunk',
      png(
        ihdr(1, 1),
        pngChunk('IDAT', deflateSync(PIXEL).subarray(0, 4)),
        pngChunk('tEXt', Buffer.from('a\0b')),
        pngChunk('IDAT', deflateSync(PIXEL).subarray(4)),
        IEND,
      ),
    ],
    ['a PNG with an unknown critical chunk', png(ihdr(1, 1), pngChunk('HTML', html), idat(PIXEL), IEND)],
    ['a PNG with a chunk type that is not letters', png(ihdr(1, 1), pngChunk('<ht>', html), idat(PIXEL), IEND)],
    ['a PNG 0 pixels wide', png(ihdr(0, 1), idat(bytes(0)), IEND)],
    ['a PNG 16,385 pixels wide', png(ihdr(16_385, 1), idat(Buffer.alloc(1 + 16_385 * 4)), IEND)],
    ['a PNG with a bit depth its colour type lacks', png(ihdr(1, 1, 4, 2), idat(bytes(0, 0, 0)), IEND)],
    ['a PNG with an undefined compression method', png(pngChunk('IHDR', bytes(0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 1, 0, 0)), idat(PIXEL), IEND)],
    ['a PNG with an undefined interlace method', png(ihdr(1, 1, 8, 6, 2), idat(PIXEL), IEND)],
    ['an indexed PNG without its palette', pngImage({ width: 1, height: 1, bitDepth: 8, colourType: 3 }, bytes(0, 0))],
    ['a greyscale PNG with a palette', pngImage({ width: 1, height: 1, bitDepth: 8, colourType: 0 }, bytes(0, 0), [pngChunk('PLTE', bytes(0, 0, 0))])],
    ['a PNG whose length field runs past the end', Buffer.concat([PNG_SIGNATURE, bytes(0x7f, 0xff, 0xff, 0xff), Buffer.from('IHDR'), html])],
  ])('refuses %s', (_label, file) => {
    expect(sniffLogoType(file)).toBeNull();
  });

  it('refuses every truncation of a valid PNG', () => {
    const whole = tinyPng();
    for (let length = 0; length < whole.length; length++) expect(sniffLogoType(whole.subarray(0, length)), `first ${length} bytes`).toBeNull();
  });

  it('refuses a decompression bomb without inflating it past what the header allows', () => {
    // 16 MiB of zeros deflate to about 16 KB, for an image that should hold 10 × (1 + 10) = 110 bytes.
    const bomb = png(ihdr(10, 10, 8, 0), idat(Buffer.alloc(16 * 1024 * 1024)), IEND);
    expect(bomb.length).toBeLessThan(64 * 1024);
    expect(sniffLogoType(bomb)).toBeNull();
  });

  it('decodes at most 32 MiB of PNG image data: 2048×2048 RGBA passes, 4096×2049 does not', () => {
    expect(sniffLogoType(png(ihdr(2048, 2048), idat(Buffer.alloc(2048 * (1 + 2048 * 4))), IEND))).toBe('image/png');
    expect(sniffLogoType(png(ihdr(4096, 2049), idat(Buffer.alloc(2049 * (1 + 4096 * 4))), IEND))).toBeNull();
  });

  it.each([
    ['JPEG SOI + HTML', Buffer.concat([bytes(0xff, 0xd8, 0xff), html])],
    ['a JPEG header (SOI, APP0) + HTML', Buffer.concat([jpeg.subarray(0, 20), html])],
    ['a JPEG with HTML after EOI', Buffer.concat([jpeg, html])],
    ['a JPEG with one byte after EOI', Buffer.concat([jpeg, bytes(0)])],
    ['a JPEG without EOI', jpeg.subarray(0, -2)],
    ['a JPEG whose scan runs into HTML and no EOI', Buffer.concat([jpegUpToScanData, html])],
    ['a JPEG with no frame or scan (SOI, APP0, EOI)', Buffer.concat([jpeg.subarray(0, 20), EOI])],
    ['a JPEG with no scan', Buffer.concat([jpeg.subarray(0, sosAt), EOI])],
    ['a JPEG with a scan but no frame header', Buffer.concat([jpeg.subarray(0, 20), jpeg.subarray(sosAt)])],
    ['a JPEG whose scan has no data', Buffer.concat([jpegUpToScanData, EOI])],
    ['a JPEG 0 pixels high', Buffer.from(jpeg).fill(0, jpeg.indexOf(bytes(0xff, 0xc0)) + 5, jpeg.indexOf(bytes(0xff, 0xc0)) + 7)],
    ['a JPEG with a segment length past the end', Buffer.concat([bytes(0xff, 0xd8, 0xff, 0xe0, 0xff, 0xff), html])],
    [
      'a JPEG with two frame headers',
      Buffer.concat([jpeg.subarray(0, sosAt), jpeg.subarray(jpeg.indexOf(bytes(0xff, 0xc0)), jpeg.indexOf(bytes(0xff, 0xc0)) + 13), jpeg.subarray(sosAt)]),
    ],
    ['a JPEG with a second SOI', Buffer.concat([jpeg.subarray(0, 2), jpeg])],
    ['a JPEG with a reserved marker', Buffer.concat([jpeg.subarray(0, 2), bytes(0xff, 0x02, 0x00, 0x02), jpeg.subarray(2)])],
    ['a JPEG with a byte between segments that is no marker', Buffer.concat([jpeg.subarray(0, 20), bytes(0x3c), jpeg.subarray(20)])],
  ])('refuses %s', (_label, file) => {
    expect(sniffLogoType(file)).toBeNull();
  });

  it('refuses every truncation of a valid JPEG', () => {
    for (let length = 0; length < jpeg.length; length++) expect(sniffLogoType(jpeg.subarray(0, length)), `first ${length} bytes`).toBeNull();
  });

  it.each([
    ['a WebP whose RIFF size is 2 too big', riff([webpChunk('VP8L', VP8L)], 2)],
    ['a WebP whose RIFF size is 2 too small', riff([webpChunk('VP8L', VP8L)], -2)],
    ['a WebP with HTML after it (RIFF size unchanged)', Buffer.concat([webpBytes(), html])],
    ['a WebP with bytes after its last chunk (RIFF size counting them)', riff([webpChunk('VP8L', VP8L), bytes(0, 0)])],
    ['a simple WebP with a second chunk after its image', riff([webpChunk('VP8L', VP8L), webpChunk('JUNK', html)])],
    ['a WebP whose chunk size runs past the end', riff([webpChunk('VP8L', VP8L).subarray(0, -4)])],
    [
      'a WebP whose odd chunk hides a byte in its padding',
      riff([webpChunk('VP8X', vp8x(0x04)), webpChunk('VP8L', VP8L), webpChunk('XMP ', Buffer.from('<x/>!'), 0x3c)]),
    ],
    ['RIFF/WEBP + HTML', riff([html])],
    ['a WebP whose first chunk is not VP8, VP8L or VP8X', riff([webpChunk('ICCP', html), webpChunk('VP8L', VP8L)])],
    ['a VP8L chunk without its 0x2F signature', riff([webpChunk('VP8L', flipped(VP8L, 0))])],
    ['a VP8 chunk without its start code', riff([webpChunk('VP8 ', flipped(VP8, 3))])],
    ['a VP8 chunk that is not a key frame', riff([webpChunk('VP8 ', flipped(VP8, 0))])],
    ['a VP8 chunk whose first partition runs past its end', riff([webpChunk('VP8 ', flipped(VP8, 2))])],
    ['a VP8L chunk with a version other than 0', riff([webpChunk('VP8L', Buffer.from(VP8L).fill(VP8L.readUInt8(4) | 0x20, 4, 5))])],
    ['an extended WebP with two VP8X chunks', riff([webpChunk('VP8X', vp8x()), webpChunk('VP8X', vp8x()), webpChunk('VP8L', VP8L)])],
    ['an extended WebP with no image chunk', riff([webpChunk('VP8X', vp8x(0x08)), webpChunk('EXIF', html)])],
    ['a WebP with no chunks', riff([])],
  ])('refuses %s', (_label, file) => {
    expect(sniffLogoType(file)).toBeNull();
  });

  it.each([
    ['an SVG', svgBytes()],
    ['an HTML page', Buffer.from('<!doctype html><html><body><script>alert(1)</script></body></html>')],
    ['plain text', Buffer.from('hello, this is not an image')],
    ['a GIF', gifBytes()],
    ['nothing', Buffer.alloc(0)],
  ])('refuses %s', (_label, file) => {
    expect(sniffLogoType(file)).toBeNull();
  });
});
