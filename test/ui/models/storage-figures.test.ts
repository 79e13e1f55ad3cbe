import { describe, expect, it } from 'vitest';
import { isTwo32Artefact, storageFigures } from '../../../src/ui/models/storage-figures.ts';

const MB = 1024 * 1024;
const GB = 1024 * MB;

describe('storage meter figures', () => {
  it('shows the browser’s usage and quota when they can be true', () => {
    expect(storageFigures({ usage: 5 * MB, quota: 14 * GB }, 3.7 * MB)).toEqual({
      stored: 3.7 * MB,
      usage: 5 * MB,
      quota: 14 * GB,
      share: (5 * MB) / (14 * GB),
    });
  });

  it('drops a usage below what the library holds (seen: 1.0 MB with 3.7 MB stored)', () => {
    const f = storageFigures({ usage: 1 * MB, quota: 14 * GB }, 3.7 * MB);
    expect(f.usage).toBeNull();
    expect(f.quota).toBe(14 * GB);
    expect(f.share).toBeNull();
  });

  it('drops a usage of about 2^32 with a few MB stored (seen: "4.0 GB of 14 GB")', () => {
    const f = storageFigures({ usage: 2 ** 32 - 3 * MB, quota: 14 * GB }, 3.7 * MB);
    expect(f.usage).toBeNull();
    expect(f.quota).toBe(14 * GB);
    // …unless the library really holds about that much.
    expect(storageFigures({ usage: 2 ** 32 - 3 * MB, quota: 14 * GB }, 3.9 * GB).usage).toBe(2 ** 32 - 3 * MB);
  });

  it('drops a quota of about 2^32, or one below the usage', () => {
    expect(isTwo32Artefact(2 ** 32 - 1)).toBe(true);
    expect(isTwo32Artefact(2 ** 32 - 10 * MB)).toBe(true);
    expect(isTwo32Artefact(8 * GB)).toBe(false);
    expect(storageFigures({ usage: 10 * MB, quota: 2 ** 32 - 5 }, 4 * MB).quota).toBeNull();
    expect(storageFigures({ usage: 10 * MB, quota: 5 * MB }, 4 * MB).quota).toBeNull();
    expect(storageFigures({ usage: 0, quota: 0 }, 0)).toEqual({ stored: 0, usage: null, quota: null, share: null });
  });

  it('keeps a quota of exactly 4 GiB, which no 32-bit count can give (Chromium reports it for a context without a profile on disk)', () => {
    expect(isTwo32Artefact(2 ** 32)).toBe(false);
    expect(isTwo32Artefact(2 ** 32 + 10 * MB)).toBe(false);
    expect(storageFigures({ usage: 28 * 1024, quota: 2 ** 32 }, 13 * 1024).quota).toBe(2 ** 32);
  });
});
