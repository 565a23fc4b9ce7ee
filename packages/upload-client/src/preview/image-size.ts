/**
 * An image's width and height from its first bytes (the header), without decoding it: JPEG (its frame header,
 * turned by its EXIF orientation), PNG, GIF and WebP. What a resized decode needs to keep the proportions
 * while it sizes the shorter side. `undefined` for other formats (AVIF, HEIC, BMP, SVG...) or a header beyond
 * the bytes given.
 */
export interface ImageSize {
  width: number;
  height: number;
}

/** Bytes read for the header: a JPEG's EXIF block (with its own thumbnail) comes before the frame header, up to 64 KiB. */
export const HEADER_BYTES = 128 * 1024;

const ascii = (bytes: Uint8Array, at: number, length: number) => String.fromCharCode(...bytes.subarray(at, at + length));

export function imageSize(buffer: ArrayBuffer): ImageSize | undefined {
  const bytes = new Uint8Array(buffer);
  const view = new DataView(buffer);
  if (bytes.length < 30) return undefined;
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return jpegSize(bytes, view);
  if (ascii(bytes, 1, 3) === 'PNG') return { width: view.getUint32(16), height: view.getUint32(20) };
  if (ascii(bytes, 0, 4) === 'GIF8') return { width: view.getUint16(6, true), height: view.getUint16(8, true) };
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WEBP') return webpSize(bytes, view);
  return undefined;
}

function webpSize(bytes: Uint8Array, view: DataView): ImageSize | undefined {
  const chunk = ascii(bytes, 12, 4);
  if (chunk === 'VP8X') return { width: 1 + (view.getUint32(24, true) & 0xffffff), height: 1 + (view.getUint32(27, true) & 0xffffff) };
  if (chunk === 'VP8 ') return { width: view.getUint16(26, true) & 0x3fff, height: view.getUint16(28, true) & 0x3fff };
  if (chunk === 'VP8L') {
    const bits = view.getUint32(21, true);
    return { width: 1 + (bits & 0x3fff), height: 1 + ((bits >>> 14) & 0x3fff) };
  }
  return undefined;
}

/** A start-of-frame marker (SOF0-SOF15 but DHT, JPG and DAC): its header gives the size. */
const isFrame = (marker: number) => marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

function jpegSize(bytes: Uint8Array, view: DataView): ImageSize | undefined {
  let orientation = 1;
  for (let at = 2; at + 9 < bytes.length; ) {
    if (bytes[at] !== 0xff) return undefined;
    const marker = bytes[at + 1]!;
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    const length = view.getUint16(at + 2);
    if (marker === 0xe1 && ascii(bytes, at + 4, 4) === 'Exif') orientation = exifOrientation(view, at + 10, at + 2 + length) ?? orientation;
    if (isFrame(marker)) {
      const height = view.getUint16(at + 5);
      const width = view.getUint16(at + 7);
      // Orientations 5 to 8 turn the picture a quarter: shown, its width is its stored height.
      return orientation >= 5 ? { width: height, height: width } : { width, height };
    }
    at += 2 + length;
  }
  return undefined;
}

/** The EXIF orientation tag (0x0112) of IFD0, from the TIFF header at `tiff`; `undefined` if absent or cut. */
function exifOrientation(view: DataView, tiff: number, end: number): number | undefined {
  if (end > view.byteLength || tiff + 8 > end) return undefined;
  const little = view.getUint16(tiff) === 0x4949;
  const ifd = tiff + view.getUint32(tiff + 4, little);
  if (ifd + 2 > end) return undefined;
  const entries = view.getUint16(ifd, little);
  for (let index = 0; index < entries; index++) {
    const entry = ifd + 2 + index * 12;
    if (entry + 12 > end) return undefined;
    if (view.getUint16(entry, little) === 0x0112) return view.getUint16(entry + 8, little);
  }
  return undefined;
}
