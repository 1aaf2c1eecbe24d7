import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import sharp, { type Sharp } from 'sharp';

/*
 * JPEG previews of the image types a browser cannot show (HEIC, TIFF), made
 * in the background by the documents feature's preview job (decision 017).
 * TIFF is decoded by sharp (its prebuilt libvips reads TIFF, on libuv's
 * thread pool). HEIC is HEVC inside HEIF, which sharp's prebuilt libheif
 * does not decode (it carries AV1 only), so heic-decode (libheif compiled to
 * WebAssembly) decodes it, in a worker thread of its own: the decode is
 * synchronous and takes seconds for a phone photo, which the event loop
 * serving requests must not wait for, and the WebAssembly memory it grows
 * (about 23 bytes a pixel at its peak) goes back when the thread ends.
 */

/** The preview's longest side, in pixels (a smaller image keeps its size). */
export const PREVIEW_MAX_EDGE = 2000;
export const PREVIEW_JPEG_QUALITY = 80;
/** Images with more pixels than this get no preview: decoding one would take about a gigabyte. */
export const PREVIEW_MAX_PIXELS = 50_000_000;
/** Files larger than this get no preview (they are read whole into memory to be decoded). */
export const PREVIEW_MAX_INPUT_BYTES = 100 * 1024 * 1024;
/** A HEIC decode that takes longer than this is given up (the thread is ended). */
const HEIC_DECODE_TIMEOUT_MS = 120_000;

export type PreviewType = 'image/heic' | 'image/tiff';

export type JpegPreview = { kind: 'jpeg'; bytes: Buffer; width: number; height: number } | { kind: 'too_large'; pixels: number };

/** The decoder refused the file's content (corrupt, truncated, or not an image it reads): trying again will not help. */
export class UnreadableImage extends Error {
  override name = 'UnreadableImage';
}

// Runs in the worker thread: plain CommonJS, so it needs no build step under Vitest or esbuild.
const HEIC_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
// libheif-js prints its failures; they belong in the answer, not on the server's standard output.
const said = [];
const note = (...args) => said.push(args.map((arg) => (arg && arg.message) || String(arg)).join(' '));
console.log = console.info = console.warn = console.error = note;
const decode = require(workerData.decoder);
const reason = (error) => [String((error && error.message) || error), ...said].join('; ').slice(0, 500);
(async () => {
  let images;
  try {
    images = await decode.all({ buffer: workerData.bytes });
  } catch (error) {
    return parentPort.postMessage({ unreadable: reason(error) });
  }
  try {
    const first = images[0];
    const pixels = first.width * first.height;
    if (pixels > workerData.maxPixels) return parentPort.postMessage({ tooLarge: pixels });
    const { width, height, data } = await first.decode();
    parentPort.postMessage({ width, height, data }, [data.buffer]);
  } catch (error) {
    parentPort.postMessage({ unreadable: reason(error) });
  } finally {
    images.dispose();
  }
})();
`;

// Previews are made one at a time, now and then: libvips' operation cache would only hold memory between them.
sharp.cache(false);

const heicDecoderPath = () => createRequire(import.meta.url).resolve('heic-decode');

type HeicDecoded = { width: number; height: number; data: Uint8ClampedArray } | { tooLarge: number };

function decodeHeic(bytes: Buffer, maxPixels: number): Promise<HeicDecoded> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(HEIC_WORKER, { eval: true, workerData: { decoder: heicDecoderPath(), bytes, maxPixels } });
    let settled = false;
    const settle = (done: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      done();
    };
    const timer = setTimeout(
      () => settle(() => reject(new Error(`The HEIC decoder took longer than ${HEIC_DECODE_TIMEOUT_MS / 1000} s`))),
      HEIC_DECODE_TIMEOUT_MS,
    );
    worker.once('message', (message: { unreadable?: string; tooLarge?: number; width?: number; height?: number; data?: Uint8ClampedArray }) =>
      settle(() => {
        if (message.unreadable !== undefined) reject(new UnreadableImage(`Not a HEIC image the decoder reads: ${message.unreadable}`));
        else if (message.tooLarge !== undefined) resolve({ tooLarge: message.tooLarge });
        else resolve({ width: message.width!, height: message.height!, data: message.data! });
      }),
    );
    worker.once('error', (error) => settle(() => reject(error)));
    worker.once('exit', (code) => settle(() => reject(new Error(`The HEIC decoder stopped (exit code ${code}) before it answered`))));
  });
}

/** Scales to fit PREVIEW_MAX_EDGE, turns by its EXIF orientation, puts transparency on white, and encodes a JPEG without metadata. */
async function toJpeg(image: Sharp): Promise<JpegPreview> {
  const { data, info } = await image
    .rotate()
    .resize({ width: PREVIEW_MAX_EDGE, height: PREVIEW_MAX_EDGE, fit: 'inside', withoutEnlargement: true })
    .flatten({ background: '#ffffff' })
    .jpeg({ quality: PREVIEW_JPEG_QUALITY })
    .toBuffer({ resolveWithObject: true });
  return { kind: 'jpeg', bytes: data, width: info.width, height: info.height };
}

/**
 * A JPEG preview of a HEIC or TIFF file (its first image or page), or
 * `too_large` when it has more than PREVIEW_MAX_PIXELS pixels. Content the
 * decoder cannot read throws UnreadableImage; anything else (a decoder
 * thread that died, a timeout) throws as it is and may work on a later try.
 */
export async function jpegPreview(bytes: Buffer, type: PreviewType, { maxPixels = PREVIEW_MAX_PIXELS } = {}): Promise<JpegPreview> {
  if (type === 'image/heic') {
    const decoded = await decodeHeic(bytes, maxPixels);
    if ('tooLarge' in decoded) return { kind: 'too_large', pixels: decoded.tooLarge };
    const { width, height, data } = decoded;
    return toJpeg(sharp(Buffer.from(data.buffer, data.byteOffset, data.byteLength), { raw: { width, height, channels: 4 } }));
  }
  let width: number | undefined;
  let height: number | undefined;
  try {
    ({ width, height } = await sharp(bytes).metadata());
  } catch (error) {
    throw new UnreadableImage(`Not a TIFF image the decoder reads: ${(error as Error).message}`);
  }
  if (!width || !height) throw new UnreadableImage('This TIFF image has no size');
  if (width * height > maxPixels) return { kind: 'too_large', pixels: width * height };
  try {
    return await toJpeg(sharp(bytes, { limitInputPixels: maxPixels }));
  } catch (error) {
    throw new UnreadableImage(`This TIFF image could not be decoded: ${(error as Error).message}`);
  }
}
