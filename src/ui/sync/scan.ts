// Reading a pairing QR code: the browser's BarcodeDetector where it has one, else the bundled
// decoder (`qr/decode.js`, loaded only when needed). From the camera (frames of a video) or from a
// picture (a screenshot or a photo of the code).

interface Detector {
  detect(source: CanvasImageSource | ImageBitmap): Promise<{ rawValue: string }[]>;
}
type DetectorClass = { new (opts: { formats: string[] }): Detector; getSupportedFormats?(): Promise<string[]> };

async function nativeDetector(): Promise<Detector | null> {
  const D = (globalThis as { BarcodeDetector?: DetectorClass }).BarcodeDetector;
  if (!D) return null;
  try {
    const formats = (await D.getSupportedFormats?.()) ?? ['qr_code'];
    return formats.includes('qr_code') ? new D({ formats: ['qr_code'] }) : null;
  } catch {
    return null;
  }
}

/** Decodes the QR code in a canvas's pixels, or null. `forceBundled` skips BarcodeDetector (tests of the bundled decoder). */
export async function decodeCanvas(canvas: HTMLCanvasElement, forceBundled = false): Promise<string | null> {
  const native = forceBundled ? null : await nativeDetector();
  if (native) {
    const found = await native.detect(canvas).catch(() => []);
    if (found[0]?.rawValue) return found[0].rawValue;
  }
  const { decodeQR } = await import('qr/decode.js');
  const ctx = canvas.getContext('2d', { willReadFrequently: true });
  if (!ctx) return null;
  const image = ctx.getImageData(0, 0, canvas.width, canvas.height);
  try {
    return decodeQR({ width: image.width, height: image.height, data: image.data });
  } catch {
    return null;
  }
}

/** The QR code in a picture file, or null. */
export async function decodePicture(file: Blob, forceBundled = false): Promise<string | null> {
  const bitmap = await createImageBitmap(file);
  const canvas = document.createElement('canvas');
  // Large photos are scaled down: a code fills a good part of the picture.
  const scale = Math.min(1, 1600 / Math.max(bitmap.width, bitmap.height));
  canvas.width = Math.round(bitmap.width * scale);
  canvas.height = Math.round(bitmap.height * scale);
  canvas.getContext('2d')?.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  bitmap.close();
  return decodeCanvas(canvas, forceBundled);
}

/** Camera frames read without finding a code before the scan suggests what to try (it goes on). */
export const HINT_AFTER_FRAMES = 120;
/** Animation frames the page shows with the camera giving no picture before the scan says so. */
export const NO_PICTURE_AFTER_FRAMES = 300;

/** What a scan tells while it goes on, each once. */
export interface ScanWatch {
  /** `HINT_AFTER_FRAMES` frames were read and none held a code. */
  noCodeYet?(): void;
  /** The camera has given no picture for `NO_PICTURE_AFTER_FRAMES` animation frames. */
  noPicture?(): void;
}

/** Watches the camera until a code is read (or `signal` aborts); the video shows in `video`. */
export async function scanCamera(video: HTMLVideoElement, signal: AbortSignal, watch: ScanWatch = {}): Promise<string> {
  const stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' }, audio: false });
  try {
    video.srcObject = stream;
    // Not awaited: a camera that never gives a frame never starts playing, and the loop below says so.
    video.play().catch(() => undefined);
    const canvas = document.createElement('canvas');
    let read = 0;
    let blank = 0;
    for (;;) {
      signal.throwIfAborted();
      await new Promise((r) => requestAnimationFrame(r));
      if (!video.videoWidth) {
        if (++blank === NO_PICTURE_AFTER_FRAMES) watch.noPicture?.();
        continue;
      }
      canvas.width = video.videoWidth;
      canvas.height = video.videoHeight;
      canvas.getContext('2d')?.drawImage(video, 0, 0);
      const text = await decodeCanvas(canvas);
      if (text) return text;
      if (++read === HINT_AFTER_FRAMES) watch.noCodeYet?.();
    }
  } finally {
    for (const t of stream.getTracks()) t.stop();
    video.srcObject = null;
  }
}
