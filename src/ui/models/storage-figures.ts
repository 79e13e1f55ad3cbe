// What the storage meter may say. The browser's estimate is only an estimate: it has been seen
// reporting a usage just under 2^32 bytes ("4.0 GB of 14 GB" with a few MB stored: an artefact of a
// 32-bit figure; a quota of that size is suspect for the same reason) and a usage below what the
// library holds (the estimate lags behind writes). The meter shows the
// library's own total, and the browser's figures only where they can be true.

/** The figures the meter shows; null where the browser's figure cannot be right. */
export interface StorageFigures {
  /** Bytes of the stored sessions (the library's own sum of file sizes). */
  stored: number;
  /** The browser's usage figure, when it is at least what the library holds and not the ~2^32 artefact. */
  usage: number | null;
  /** The browser's quota, when it is believable (not ~2^32, not below the usage). */
  quota: number | null;
  /** usage / quota, when both are shown. */
  share: number | null;
}

const TWO_32 = 2 ** 32;

/**
 * Whether a figure is the ~4 GiB one a 32-bit overflow gives: within 64 MiB under 2^32. A figure of
 * 2^32 or more is not one (no 32-bit count reaches it): Chromium reports a quota of exactly 4 GiB
 * for a context without a profile on disk, as it does 5 GiB.
 */
export function isTwo32Artefact(bytes: number): boolean {
  return bytes < TWO_32 && TWO_32 - bytes <= 64 * 1024 * 1024;
}

/** The meter's figures from the browser's estimate and the library's total. */
export function storageFigures(estimate: { usage: number; quota: number }, stored: number): StorageFigures {
  // A usage of ~2^32 is believed only when the library itself holds about that much.
  const artefact = isTwo32Artefact(estimate.usage) && stored < estimate.usage / 2;
  const usage = Number.isFinite(estimate.usage) && estimate.usage >= stored && estimate.usage > 0 && !artefact ? estimate.usage : null;
  const floor = Math.max(usage ?? 0, stored);
  const quota = Number.isFinite(estimate.quota) && estimate.quota > 0 && estimate.quota >= floor && !isTwo32Artefact(estimate.quota) ? estimate.quota : null;
  return { stored, usage, quota, share: usage !== null && quota !== null ? usage / quota : null };
}
