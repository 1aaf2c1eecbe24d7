import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { HEIC_PHOTO, sampleBrokenHeic, sampleHeic, samplePhotoPixels, sampleTiff } from '../../../test/sample-images';
import { PREVIEW_MAX_EDGE, UnreadableImage, jpegPreview } from './jpeg-preview';

/** Mean absolute difference per channel between two RGB images of one size (0–255). */
async function difference(jpeg: Buffer, expected: Buffer, width: number, height: number) {
  const { data } = await sharp(jpeg).resize(width, height, { fit: 'fill' }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let sum = 0;
  for (let i = 0; i < expected.length; i++) sum += Math.abs(data[i]! - expected[i]!);
  return sum / expected.length;
}

describe('JPEG previews', () => {
  it('decodes a real HEIC photo (HEVC) into a JPEG of the same picture', async () => {
    const preview = await jpegPreview(sampleHeic(), 'image/heic');
    if (preview.kind !== 'jpeg') throw new Error('expected a JPEG');
    expect(preview.bytes.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    expect([preview.width, preview.height]).toEqual([HEIC_PHOTO.width, HEIC_PHOTO.height]);
    const meta = await sharp(preview.bytes).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: HEIC_PHOTO.width, height: HEIC_PHOTO.height });
    // The same gradient and checkerboard the fixture was encoded from, give or take two lossy codecs.
    expect(await difference(preview.bytes, samplePhotoPixels(), HEIC_PHOTO.width, HEIC_PHOTO.height)).toBeLessThan(12);
  });

  it('scales a large TIFF down to the longest side, keeping its proportions', async () => {
    const preview = await jpegPreview(await sampleTiff(3000, 1500), 'image/tiff');
    if (preview.kind !== 'jpeg') throw new Error('expected a JPEG');
    expect([preview.width, preview.height]).toEqual([PREVIEW_MAX_EDGE, PREVIEW_MAX_EDGE / 2]);
    expect(await difference(preview.bytes, samplePhotoPixels(300, 150), 300, 150)).toBeLessThan(30);
  });

  it('keeps a small TIFF at its size', async () => {
    const preview = await jpegPreview(await sampleTiff(64, 48), 'image/tiff');
    expect(preview).toMatchObject({ kind: 'jpeg', width: 64, height: 48 });
  });

  it('says too large, without decoding, for an image past the pixel limit', async () => {
    expect(await jpegPreview(await sampleTiff(400, 300), 'image/tiff', { maxPixels: 100_000 })).toEqual({ kind: 'too_large', pixels: 120_000 });
    expect(await jpegPreview(sampleHeic(), 'image/heic', { maxPixels: 50_000 })).toEqual({ kind: 'too_large', pixels: 76_800 });
  });

  it('refuses what the decoder cannot read as UnreadableImage', async () => {
    const heic = sampleHeic();
    await expect(jpegPreview(heic.subarray(0, heic.length - 600), 'image/heic')).rejects.toThrow(/HEIC.*outside of file bounds/);
    await expect(jpegPreview(Buffer.from('not an image at all, just text'), 'image/heic')).rejects.toBeInstanceOf(UnreadableImage);
    await expect(jpegPreview(sampleBrokenHeic(), 'image/heic')).rejects.toBeInstanceOf(UnreadableImage);
    const tiff = await sampleTiff(64, 48);
    await expect(jpegPreview(tiff.subarray(0, 40), 'image/tiff')).rejects.toBeInstanceOf(UnreadableImage);
  });
});
