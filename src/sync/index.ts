// The sync room's one door (src/sync/types.ts explains the interface).
export * from './types.ts';
export { createEngine, newState } from './engine.ts';
export { newIdentity, spaceKeys } from './keys.ts';
export { checkSpace, createSpace, spaceState } from './check.ts';
export { newCode, normalizeCode, pairingLink, openPairingLink, linkNeedsCode } from './pairing.ts';
export { ROOT, SPACE_OBJECT, parsePackName } from './envelope.ts';
export { transportFor } from './transports/index.ts';
export { retrying } from './transports/retry.ts';
export { s3Transport } from './transports/s3.ts';
export { webdavTransport } from './transports/webdav.ts';
export { folderTransport, type DirectoryLike, type FileLike } from './transports/folder.ts';
export { classifyFetchError, corsRule } from './transports/classify.ts';
export { answerSeal, type SealFn, type SealPool, type SealRequest, sealInThread, sealPool } from './seal.ts';
