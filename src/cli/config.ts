// The command line's settings (space, identity, device name) and the engine's state, in files
// readable by the user only (0600) under the user's config dir; RHO_SESSIONS_CONFIG overrides the path.
import { promises as fs } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { type SpaceSettings, type StateStore, type SyncState, type Transport, transportFor } from '../sync/index.ts';
import { fsDirectory } from './fs-directory.ts';

export interface CliConfig {
  space: SpaceSettings;
  identity: string;
  deviceName: string;
  /** For a folder space: its path. */
  folder?: string;
}

export function configPath(): string {
  if (process.env.RHO_SESSIONS_CONFIG) return process.env.RHO_SESSIONS_CONFIG;
  const base = process.env.XDG_CONFIG_HOME || join(homedir(), '.config');
  return join(base, 'rho-sessions', 'sync.json');
}

let writes = 0;

async function writePrivate(path: string, text: string): Promise<void> {
  await fs.mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const tmp = `${path}.${process.pid}.${++writes}.tmp`;
  await fs.writeFile(tmp, text, { mode: 0o600 });
  await fs.chmod(tmp, 0o600);
  await fs.rename(tmp, path);
}

export async function loadConfig(): Promise<CliConfig | null> {
  try {
    return JSON.parse(await fs.readFile(configPath(), 'utf8')) as CliConfig;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new Error(`${configPath()}: not readable settings (${(error as Error).message})`);
  }
}

export const saveConfig = (config: CliConfig): Promise<void> => writePrivate(configPath(), `${JSON.stringify(config, null, 2)}\n`);

/** The engine's state beside the settings (`<config>.state`). */
export function fileState(): StateStore {
  const path = `${configPath()}.state`;
  let saving: Promise<void> = Promise.resolve();
  return {
    async load() {
      try {
        return JSON.parse(await fs.readFile(path, 'utf8')) as SyncState;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    save(state) {
      // one write after the other, each of the state as it was when asked: the last asked lands last
      const text = JSON.stringify(state);
      const next = saving.then(() => writePrivate(path, text));
      saving = next.catch(() => {});
      return next;
    },
  };
}

export async function forgetState(): Promise<void> {
  await fs.rm(`${configPath()}.state`, { force: true });
}

/** The transport of the configured space (a folder space through Node's fs). */
export function transportOf(config: CliConfig): Transport {
  return transportFor(config.space, config.space.kind === 'folder' ? fsDirectory(config.folder!) : undefined);
}
