// omp's image blobs in blobs/, each stored under the sha256 of its bytes (a name that is not one is refused).
import { once } from './chunks.ts';
import { isNotFound, StoreError } from './errors.ts';
import { BLOBS_DIR } from './names.ts';
import type { Disk, SessionStore } from './types.ts';

const SHA256 = /^[0-9a-f]{64}$/;

/** The store's blob calls over `disk`. */
export function blobFiles(disk: Disk): Pick<SessionStore, 'readBlob' | 'hasBlob' | 'writeBlob'> {
  return {
    async readBlob(sha256) {
      if (!SHA256.test(sha256)) return null;
      try {
        return await disk.blob(`${BLOBS_DIR}/${sha256}`);
      } catch (e) {
        if (isNotFound(e)) return null;
        throw e;
      }
    },
    async hasBlob(sha256) {
      return SHA256.test(sha256) && (await disk.size(`${BLOBS_DIR}/${sha256}`)) !== null;
    },
    async writeBlob(sha256, bytes) {
      if (!SHA256.test(sha256)) throw new StoreError('invalid-input', `Not a sha256: ${sha256}`);
      await disk.writeNew(`${BLOBS_DIR}/${sha256}`, once(bytes));
    },
  };
}
