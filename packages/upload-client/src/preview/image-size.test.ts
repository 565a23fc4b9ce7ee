import { describe, expect, it } from 'vitest';
import { fitted } from './decode-image';
import { imageSize } from './image-size';

/** A minimal JPEG head: SOI, an APP1 Exif block with IFD0 holding the orientation (big-endian), SOF0. */
function jpegHead(width: number, height: number, orientation?: number): ArrayBuffer {
  const bytes: number[] = [0xff, 0xd8];
  if (orientation !== undefined) {
    const tiff = [0x4d, 0x4d, 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, orientation, 0, 0, 0, 0, 0, 0, 0, 0];
    const body = [...'Exif'].map((c) => c.charCodeAt(0)).concat([0, 0], tiff);
    bytes.push(0xff, 0xe1, (body.length + 2) >> 8, (body.length + 2) & 0xff, ...body);
  }
  bytes.push(0xff, 0xc0, 0, 17, 8, height >> 8, height & 0xff, width >> 8, width & 0xff, 3, ...new Array(9).fill(0));
  bytes.push(...new Array(32).fill(0));
  return new Uint8Array(bytes).buffer;
}

describe('imageSize', () => {
  it('reads a JPEG frame header, turned a quarter by EXIF orientations 5-8', () => {
    expect(imageSize(jpegHead(6000, 4000))).toEqual({ width: 6000, height: 4000 });
    expect(imageSize(jpegHead(6000, 4000, 1))).toEqual({ width: 6000, height: 4000 });
    expect(imageSize(jpegHead(6000, 4000, 6))).toEqual({ width: 4000, height: 6000 });
  });

  it('reads PNG, GIF and WebP (VP8X) headers; none for other bytes', () => {
    const png = new Uint8Array(40);
    png.set([0x89, 0x50, 0x4e, 0x47]);
    new DataView(png.buffer).setUint32(16, 1200);
    new DataView(png.buffer).setUint32(20, 800);
    expect(imageSize(png.buffer)).toEqual({ width: 1200, height: 800 });
    const gif = new Uint8Array(40);
    gif.set([...'GIF89a'].map((c) => c.charCodeAt(0)));
    new DataView(gif.buffer).setUint16(6, 320, true);
    new DataView(gif.buffer).setUint16(8, 240, true);
    expect(imageSize(gif.buffer)).toEqual({ width: 320, height: 240 });
    const webp = new Uint8Array(40);
    webp.set([...'RIFF'].map((c) => c.charCodeAt(0)));
    webp.set([...'WEBPVP8X'].map((c) => c.charCodeAt(0)), 8);
    webp.set([0x7f, 0x07, 0, 0x37, 0x04, 0], 24);
    expect(imageSize(webp.buffer)).toEqual({ width: 1920, height: 1080 });
    expect(imageSize(new Uint8Array(64).buffer)).toBeUndefined();
  });
});

describe('fitted', () => {
  it('asks for the shorter side at `size`, proportions kept, never larger than the image', () => {
    expect(fitted({ width: 6000, height: 4000 }, 80)).toEqual({ resizeWidth: 120, resizeHeight: 80 });
    expect(fitted({ width: 3000, height: 4000 }, 80)).toEqual({ resizeWidth: 80, resizeHeight: 107 });
    expect(fitted({ width: 60, height: 40 }, 80)).toBeUndefined();
    expect(fitted(undefined, 80)).toEqual({ resizeWidth: 80 });
  });
});
