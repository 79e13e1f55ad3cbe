// `once` and `watch`: rounds of the engine over agent folders, with a one-line report each.
import { watch as watchFs } from 'node:fs';
import { createEngine, spaceKeys, type RoundReport, type SyncEngine } from '../sync/index.ts';
import { type CliConfig, fileState, transportOf } from './config.ts';
import { folderLocal } from './folder-local.ts';
import { nodeSealPool } from './seal-workers.ts';

async function engineFor(config: CliConfig, folders: string[]): Promise<{ engine: SyncEngine; notices: string[] }> {
  const local = folderLocal(folders);
  const engine = createEngine({
    transport: transportOf(config),
    keys: await spaceKeys(config.identity),
    local,
    state: fileState(),
    deviceName: config.deviceName,
    // packs are encrypted in worker threads while this thread reads the folders and uploads
    seal: nodeSealPool().seal,
  });
  return { engine, notices: local.notices };
}

function describe(report: RoundReport): string {
  const by = (o: string) => report.applied.filter((a) => a.outcome === o).length;
  return `sent ${report.sentObjects} object(s) (${report.sentBytes} bytes), received ${report.received}; added ${by('added')}, appended ${by('appended')}, variants ${by('variant')}; ${report.devices.length} device(s), space ${report.spaceBytes} bytes`;
}

export async function runOnce(config: CliConfig, folders: string[]): Promise<number> {
  const { engine, notices } = await engineFor(config, folders);
  const report = await engine.round();
  console.log(describe(report));
  for (const n of notices) console.log(n);
  for (const r of report.refused) console.error(`refused ${r.message}`);
  if (!report.agreed) {
    console.error(
      `rho-sessions sync: the space and the folders do not agree yet${report.refused.length ? ` (${report.refused.length} object(s) refused)` : ''}`,
    );
    return 1;
  }
  return 0;
}

/** Rounds until interrupted: at once when a folder changes, else every `poll` ms. */
export async function watch(config: CliConfig, folders: string[], poll = 3000): Promise<number> {
  const { engine } = await engineFor(config, folders);
  const stop = new AbortController();
  process.once('SIGINT', () => stop.abort());
  process.once('SIGTERM', () => stop.abort());
  let wake: (() => void) | null = null;
  const watchers = folders.map((f) => watchFs(f, { recursive: true }, () => wake?.()));
  try {
    while (!stop.signal.aborted) {
      try {
        console.log(describe(await engine.round(stop.signal)));
      } catch (error) {
        if (stop.signal.aborted) break;
        console.error(`rho-sessions sync: ${(error as Error).message.split('\n')[0]}`);
      }
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, poll);
        wake = () => {
          clearTimeout(t);
          resolve();
        };
        stop.signal.addEventListener('abort', () => wake?.());
      });
      wake = null;
    }
  } finally {
    for (const w of watchers) w.close();
  }
  return 0;
}
