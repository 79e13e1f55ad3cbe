// Which stored sessions are subagent transcripts of which: one small file per child under links/,
// so the relation survives an index rebuild (the index is only a cache of what the files say).
import { once } from './chunks.ts';
import type { Disk, ParentLink } from './types.ts';

/** The folder of link files. */
export const LINKS_DIR = 'links';

const linkPath = (id: string) => `${LINKS_DIR}/${encodeURIComponent(id)}`;

/** The links of a store's disk, read once and kept in memory. */
export function createLinks(disk: Disk) {
  let map: Map<string, ParentLink> | null = null;
  const load = async (): Promise<Map<string, ParentLink>> => {
    if (map) return map;
    const next = new Map<string, ParentLink>();
    for (const name of await disk.names(LINKS_DIR)) {
      try {
        const link = JSON.parse(new TextDecoder().decode(await disk.read(`${LINKS_DIR}/${name}`))) as ParentLink;
        if (typeof link?.parentOf === 'string' && link.subagent) next.set(decodeURIComponent(name), link);
      } catch {
        // Not a link we wrote, or being replaced: the next load reads it.
      }
    }
    map = next;
    return map;
  };
  return {
    load,
    /** The link of a child (after `load`), or undefined. */
    peek: (id: string) => map?.get(id),
    /** Records (or replaces) a child's link. */
    async set(id: string, link: ParentLink): Promise<void> {
      await load();
      await disk.writeNew(linkPath(id), once(new TextEncoder().encode(JSON.stringify(link))));
      map?.set(id, link);
    },
    /** Forgets what was read (another tab may have written links): the next load reads the files. */
    reset() {
      map = null;
    },
  };
}
