// Writing this device's packs: segments and records gather into a pack of at most PACK_BYTES of
// segment bytes, sealed, named by its MAC, put, and added to the catalog; the state is saved after
// each put so a sequence number is never reused for other content. Packs are put one after the
// other, in order; while one uploads the next ones are sealed (in workers when the engine has a
// pool) and gathered, at most AHEAD packs unfinished at a time.
import { packName } from './envelope.ts';
import { encodePack, type PackHeader, type Segment, type TrashRecord } from './pack.ts';
import type { Round } from './round.ts';
import { sealInThread } from './seal.ts';

export const PACK_BYTES = 8 * 1024 * 1024;
const AHEAD = 3;

export class PackWriter {
  private segments: Segment[] = [];
  private bytes: Uint8Array[] = [];
  private size = 0;
  private trash: TrashRecord[] = [];
  private replaces: number[] | undefined;
  private left = false;
  private inFlight: Promise<void> | null = null;
  private unfinished: Promise<void>[] = [];
  constructor(private readonly r: Round) {}

  get pending(): boolean {
    return this.segments.length > 0 || this.trash.length > 0;
  }

  async segment(s: Segment, bytes: Uint8Array): Promise<void> {
    if (this.size + bytes.length > PACK_BYTES && this.segments.length) await this.flush();
    this.segments.push(s);
    this.bytes.push(bytes);
    this.size += bytes.length;
  }

  addTrash(t: TrashRecord): void {
    this.trash.push(t);
  }

  /** Marks the next pack as this device's last: it leaves the space. */
  leaving(): void {
    this.left = true;
  }

  /** Marks the packs written from now on as repeating these own seqs (consolidation). */
  replacing(seqs: number[]): void {
    this.replaces = seqs;
  }

  /**
   * Seals what is gathered as one pack (also an empty one: cursors only, or a first hello) and puts
   * it while the caller gathers and seals the next: one put in flight at a time (`drain` waits for
   * the last; a failed put is thrown by a later flush or by drain).
   */
  async flush(force = false): Promise<void> {
    if (!this.pending && !force) return;
    const { state, deps, signal } = this.r;
    const header: PackHeader = {
      device: state.device,
      seq: state.seq,
      at: this.r.now(),
      name: deps.deviceName,
      cursors: { ...state.cursors },
      segments: this.segments,
      trash: this.trash,
      ...(this.replaces ? { replaces: this.replaces } : {}),
      ...(this.left ? { left: true } : {}),
    };
    const size = this.size;
    const plain = encodePack(header, this.bytes);
    this.segments = [];
    this.bytes = [];
    this.size = 0;
    this.trash = [];
    state.seq++; // spent before the put: a retry never reuses it for other content
    const name = await packName(deps.keys, state.device, header.seq, plain);
    const sealing = (deps.seal ?? sealInThread)(deps.keys.recipient, plain);
    sealing.catch(() => {}); // awaited below, in order
    await deps.state.save(state);
    const previous = this.inFlight;
    this.inFlight = (async () => {
      const sealed = await sealing;
      await previous;
      await deps.transport.put(name, sealed, signal);
      state.packs[name] = header;
      state.published = { ...header.cursors };
      await deps.state.save(state);
      this.r.report.sentObjects++;
      this.r.report.sentBytes += size;
      this.r.emit({ type: 'progress', phase: 'send', done: this.r.report.sentObjects, total: 0, bytes: this.r.report.sentBytes });
    })();
    this.inFlight.catch(() => {}); // awaited by a later flush or by drain
    this.unfinished.push(this.inFlight);
    while (this.unfinished.length >= AHEAD) await this.unfinished.shift();
  }

  /** Waits for the last put; throws its failure. */
  async drain(): Promise<void> {
    await this.inFlight;
  }
}
