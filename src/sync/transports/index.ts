// The transport for a space's settings (a folder needs its handle, given by the caller).
import type { SpaceSettings, Transport } from '../types.ts';
import { type DirectoryLike, folderTransport } from './folder.ts';
import { retrying } from './retry.ts';
import { s3Transport } from './s3.ts';
import { webdavTransport } from './webdav.ts';

export function transportFor(settings: SpaceSettings, folder?: DirectoryLike): Transport {
  if (settings.kind === 's3') return retrying(s3Transport(settings));
  if (settings.kind === 'webdav') return retrying(webdavTransport(settings));
  if (!folder) throw new Error(`the folder ${settings.name} needs its handle`);
  return retrying(folderTransport(folder, settings.name));
}
