/**
 * Makes the small photos of test/image-transform.e2e.test.ts into test/fixtures/ (committed; run again only to
 * change them: `pnpm exec tsx scripts/make-image-fixtures.ts`). Made with sharp (libvips, its binary from npm):
 * - `upright-orientation-6.jpg`: stored sideways, 600 x 400 pixels, with EXIF orientation 6 (rotate 90 degrees
 *   clockwise to show), so that it shows upright as 400 x 600, red in its top third and blue below; with a GPS
 *   position, a camera make and model.
 * - `large-photo.jpg`: 1,200 x 900 pixels of blurred noise at quality 90 (~0.4 MB), that a resize to 640
 *   pixels makes ~10 times smaller; with a GPS position too.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const dir = fileURLToPath(new URL('../test/fixtures/', import.meta.url));
mkdirSync(dir, { recursive: true });

/** A GPS position (Paris), a camera and the date: what a phone writes (libvips names: IFD0 main, IFD3 GPS). */
const exif = {
  IFD0: { Make: 'Upbeam', Model: 'Fixture Phone', DateTime: '2026:11:29 12:00:00' },
  IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 24/1', GPSLongitudeRef: 'E', GPSLongitude: '2/1 21/1 3/1' },
};

async function upright(): Promise<void> {
  const width = 400;
  const height = 600;
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const at = (y * width + x) * 3;
      if (y < height / 3) pixels.set([220, 30, 30], at);
      else pixels.set([30, 30, 220], at);
    }
  }
  // Turned 90 degrees anticlockwise to store it: orientation 6 turns it back clockwise to show it.
  const stored = await sharp(await sharp(pixels, { raw: { width, height, channels: 3 } }).rotate(-90).png().toBuffer())
    .withExif(exif)
    .withMetadata({ orientation: 6 })
    .jpeg({ quality: 90 })
    .toBuffer();
  writeFileSync(`${dir}upright-orientation-6.jpg`, stored);
}

async function large(): Promise<void> {
  const width = 1200;
  const height = 900;
  const pixels = Buffer.alloc(width * height * 3);
  // A fixed pseudo-random sequence (xorshift), so that the file is the same at every run.
  let seed = 0x2f6b3a1d;
  for (let i = 0; i < pixels.length; i += 1) {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    pixels[i] = seed & 0xff;
  }
  const photo = await sharp(pixels, { raw: { width, height, channels: 3 } }).blur(1.5).withExif(exif).jpeg({ quality: 90 }).toBuffer();
  writeFileSync(`${dir}large-photo.jpg`, photo);
}

await upright();
await large();
