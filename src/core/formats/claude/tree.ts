// Claude Code's uuid/parentUuid tree → pi's id/parentId tree. Claude writes one API response as
// several `assistant` lines (one per content block) and its tool results, hook progress and
// attachments as lines hanging off whichever of those lines was current, so a plain copy of its
// tree forks at every parallel tool call. Here a *region* is what one line starts: a user prompt,
// an API response (its assistant lines merged into one pi message), a compaction; every other line
// (tool results, meta prompts, progress, attachments, system notes, bookkeeping) joins the region
// of its parent and is chained after that region's current tail. Real branches (a prompt edited,
// a response retried, a resume) start regions at the same parent and stay branches.

export interface Region {
  /** message.id + requestId of the API response this region holds; null for others. */
  key: string | null;
  /** The pi id the next joining line or child region attaches to (null: a root). */
  tail: string | null;
  /** The pi assistant message the region's assistant lines merge into. */
  message?: Record<string, unknown>;
  /** The region started last from this one's tail: a line that joins this region late (hook progress after the next response began) goes on there instead of forking. */
  next?: Region;
  /** A compaction entry waiting for its summary (the isCompactSummary user line that follows). */
  compaction?: Record<string, unknown>;
}

export class Regions {
  /** Where lines with no parent go: after the uuid-less lines before the first conversation line. */
  readonly root: Region = { key: null, tail: null };
  private readonly byUuid = new Map<string, Region>();
  /** The region of the last conversation line of the main chain (else of any chain). */
  private lastMain: Region | null = null;
  private lastAny: Region | null = null;

  has(uuid: string): boolean {
    return this.byUuid.has(uuid);
  }

  get(uuid: string): Region | undefined {
    return this.byUuid.get(uuid);
  }

  /** Records the region a line ended in (its children attach to that region's tail). */
  set(uuid: string, region: Region, sidechain: boolean): void {
    this.byUuid.set(uuid, region);
    if (!sidechain) this.lastMain = region;
    this.lastAny = region;
  }

  /** The region a line without a uuid joins: the main chain's latest, else the latest, else the root. */
  current(): Region {
    const region = this.lastMain ?? this.lastAny;
    return region ? this.joinable(region) : this.root;
  }

  /** A region to join for a line whose parent region is `parent` (or the one the conversation went on in); the root region is never extended by a joining line of the conversation. */
  joinable(parent: Region): Region {
    if (parent === this.root) return { key: null, tail: parent.tail };
    let region = parent;
    while (region.next) region = region.next;
    return region;
  }

  /** A region that starts from `parent`'s tail (a prompt, a response, a compaction). */
  start(parent: Region, region: Region): Region {
    if (parent !== this.root) parent.next = region;
    return region;
  }
}
