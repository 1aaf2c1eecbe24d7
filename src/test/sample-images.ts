import { readFileSync } from 'node:fs';
import sharp from 'sharp';

/**
 * Photos in the formats that get a converted JPEG preview. TIFF is made here
 * with sharp. HEIC cannot be: no npm library encodes HEVC (sharp's prebuilt
 * libheif carries AV1 only, libheif-js only decodes), so one small real file
 * is checked in: `fixtures/photo-320x240.heic`, 2.5 KB, made by libheif's
 * `heif-enc -q 40` (x265) from a 320×240 PNG of a red/green gradient under a
 * 16-pixel checkerboard in blue (`samplePhotoPixels` draws the same picture).
 */

export const HEIC_PHOTO = { width: 320, height: 240 };

export const sampleHeic = () => readFileSync(new URL('./fixtures/photo-320x240.heic', import.meta.url));

function box(type: string, body: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(8 + body.length, 0);
  head.write(type, 4, 'latin1');
  return Buffer.concat([head, body]);
}

/**
 * A HEIC file whose boxes are whole (the upload's content check takes it)
 * but that holds no image a decoder can find: the fixture's `ftyp` and
 * `mdat` around a `meta` box with only its `pict` handler, as a broken phone
 * export might write it.
 */
export function sampleBrokenHeic(): Buffer {
  const photo = sampleHeic();
  const ftyp = photo.subarray(0, photo.readUInt32BE(0));
  const hdlr = box('hdlr', Buffer.concat([Buffer.alloc(8), Buffer.from('pict', 'latin1'), Buffer.alloc(13)]));
  const meta = box('meta', Buffer.concat([Buffer.alloc(4), hdlr]));
  const mdatAt = photo.indexOf('mdat', 0, 'latin1') - 4;
  return Buffer.concat([ftyp, meta, photo.subarray(mdatAt)]);
}

/** The picture in the HEIC fixture, as raw RGB: red grows to the right, green downwards, blue in a checkerboard. */
export function samplePhotoPixels(width = HEIC_PHOTO.width, height = HEIC_PHOTO.height): Buffer {
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      raw[i] = Math.floor((x * 255) / width);
      raw[i + 1] = Math.floor((y * 255) / height);
      raw[i + 2] = ((x >> 4) + (y >> 4)) % 2 ? 200 : 40;
    }
  }
  return raw;
}

/** A real TIFF of the same picture at `width`×`height` (LZW, as scanners often write them). */
export function sampleTiff(width = 640, height = 480): Promise<Buffer> {
  return sharp(samplePhotoPixels(width, height), { raw: { width, height, channels: 3 } })
    .tiff({ compression: 'lzw' })
    .toBuffer();
}

/**
 * A scanned page as office scanners write one: bilevel (1 bit a pixel, CCITT
 * Group 4), white with black lines of "text". Small whatever its size, so
 * even a 50-megapixel page is a few kilobytes.
 */
export function sampleScanTiff(width = 2550, height = 3300): Promise<Buffer> {
  const page = Buffer.alloc(width * height, 255);
  const margin = Math.floor(width / 10);
  for (let line = 0, top = margin; top + 12 < height - margin; line++, top += 40) {
    const right = width - margin - ((line * 97) % Math.floor(width / 3));
    for (let y = top; y < top + 12; y++) page.fill(0, y * width + margin, y * width + right);
  }
  return sharp(page, { raw: { width, height, channels: 1 } })
    .toColourspace('b-w')
    .tiff({ compression: 'ccittfax4', bitdepth: 1 })
    .toBuffer();
}
