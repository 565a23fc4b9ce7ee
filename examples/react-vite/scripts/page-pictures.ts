/** Makes a photo-like image in the page: a gradient of two colours with noise, as a PNG of `side`² pixels. */
export type PictureMaker = (name: string, from: string, to: string, side: number) => Promise<File>;

/**
 * Runs in the page (`page.evaluate(definePictureMaker)`): defines `window.makePicture`, a {@link PictureMaker},
 * for the screenshot scripts' drops.
 */
export function definePictureMaker(): void {
  const makePicture: PictureMaker = async (name, from, to, side) => {
    const canvas = document.createElement('canvas');
    canvas.width = side;
    canvas.height = side;
    const context = canvas.getContext('2d')!;
    const gradient = context.createLinearGradient(0, 0, side, side);
    gradient.addColorStop(0, from);
    gradient.addColorStop(1, to);
    context.fillStyle = gradient;
    context.fillRect(0, 0, side, side);
    // Noise, so that the PNG weighs what a photo does.
    const pixels = context.getImageData(0, 0, side, side);
    for (let i = 0; i < pixels.data.length; i += 4) pixels.data[i + 2] = (pixels.data[i + 2]! + Math.random() * 60) & 255;
    context.putImageData(pixels, 0, 0);
    const blob = await new Promise<Blob>((resolve) => canvas.toBlob((b) => resolve(b!), 'image/png'));
    return new File([blob], name, { type: 'image/png' });
  };
  (window as unknown as { makePicture: PictureMaker }).makePicture = makePicture;
}
