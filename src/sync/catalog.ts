// Reading the space: list it, open the packs not seen before, keep their headers (the catalog),
// refuse what does not open. Packs gone from the listing (consolidated away) leave the catalog.
import { parsePackName, ROOT, SPACE_OBJECT } from './envelope.ts';
import { readHeader, type Round } from './round.ts';
import { SyncError, type SpaceObject } from './types.ts';

/** Lists the space and brings the catalog up to date; gives the listing. */
export async function refreshCatalog(r: Round): Promise<SpaceObject[]> {
  const { transport } = r.deps;
  const listed = await transport.list(ROOT, r.signal);
  if (!listed.some((o) => o.name === SPACE_OBJECT))
    throw new SyncError('no-space', `No sync space at ${transport.where} (no ${SPACE_OBJECT}): make one with "init" or pair with a device that has one.`);
  r.report.spaceBytes = listed.reduce((n, o) => n + o.size, 0);
  const names = new Set(listed.map((o) => o.name));
  for (const name of Object.keys(r.state.packs)) if (!names.has(name)) delete r.state.packs[name];
  // refused objects are read again each round: a cut-off answer must not be refused for good
  for (const name of Object.keys(r.state.refused)) if (!names.has(name)) delete r.state.refused[name];
  const sizes = new Map(listed.map((o) => [o.name, o.size]));
  const fresh = [...names].filter((n) => parsePackName(n) && !r.state.packs[n]).sort();
  let done = 0;
  for (const name of fresh) {
    r.emit({ type: 'progress', phase: 'receive', done: done++, total: fresh.length, bytes: 0 });
    try {
      const header = await readHeader(r, name, sizes.get(name)!);
      const where = parsePackName(name)!;
      if (header.device !== where.device || header.seq !== where.seq)
        throw new SyncError('tampered', `${name}: its header names another place; nothing was applied`, { object: name });
      r.state.packs[name] = header;
      delete r.state.refused[name];
      if (where.device !== r.state.device) r.report.received++;
    } catch (error) {
      if (error instanceof SyncError && error.code === 'not-found') continue; // consolidated away meanwhile: listed again next round
      if (error instanceof SyncError && error.code === 'tampered') {
        r.state.refused[name] = error.message;
        r.report.refused.push({ object: name, message: error.message });
        r.emit({ type: 'error', error });
        continue;
      }
      throw error;
    }
  }
  // what was learnt is kept at once: a round cut short (a reload, a closed tab) does not read it again
  if (fresh.length) await r.deps.state.save(r.state);
  return listed;
}
