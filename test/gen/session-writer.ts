// The low level of the session generator (session.ts): its options and state, and how an entry
// becomes a line (ids, parents, timestamps, the leaf, the bytes written so far). `SessionGen` adds
// what a session is made of on top.
import type { Rng } from './prng.ts';
import { createRng } from './prng.ts';
import { assistantMessage, image, MODELS_PI, thinkingPart, toolBytes, toolCall } from './session-parts.ts';

/** Which tool wrote the file (decides entry shapes). */
export type Flavor = 'pi' | 'omp' | 'rho';

/** What to generate. */
export interface GenerateOptions {
  seed: number;
  /** Stop after the first turn that brings the file to at least this many bytes. */
  targetBytes: number;
  flavor?: Flavor;
  /** Probability that a user turn / tool result carries an image (default 0.08). */
  imageRate?: number;
  /** Inline image size range in decoded bytes (default 2 KiB … 48 KiB). */
  imageBytes?: [number, number];
  /** Roughly one compaction every this many bytes (default: 8 per file, at least every 256 KiB). */
  compactionEvery?: number;
  /** Probability that a user turn starts a new branch from an earlier point (default 0.06). */
  branchRate?: number;
  /** Probability of an aborted / errored / empty assistant turn (default 0.05). */
  abortRate?: number;
  /** Wall-clock start of the session (ms, default 2026-01-01). */
  startMs?: number;
}

export interface Node {
  id: string;
  parentId: string | null;
  type: string;
  role?: string;
}

/** A generator's state and its line writing; session.ts's `SessionGen` decides what is written. */
export class SessionWriter {
  protected readonly rng: Rng;
  protected readonly flavor: Flavor;
  protected readonly o: Required<Omit<GenerateOptions, 'flavor'>>;
  protected readonly ids = new Set<string>();
  protected readonly nodes: Node[] = [];
  protected readonly byId = new Map<string, Node>();
  protected leaf: string | null = null;
  protected now: number;
  protected bytes = 0;
  protected nextCompactionAt: number;
  protected modelIx = 0;
  protected toolSeq = 0;
  protected out: string[] = [];

  constructor(opts: GenerateOptions) {
    this.rng = createRng(opts.seed);
    this.flavor = opts.flavor ?? 'pi';
    const compactionEvery = opts.compactionEvery ?? Math.max(256 * 1024, Math.floor(opts.targetBytes / 8));
    this.o = {
      seed: opts.seed,
      targetBytes: opts.targetBytes,
      imageRate: opts.imageRate ?? 0.08,
      imageBytes: opts.imageBytes ?? [2048, 48 * 1024],
      compactionEvery,
      branchRate: opts.branchRate ?? 0.06,
      abortRate: opts.abortRate ?? 0.05,
      startMs: opts.startMs ?? Date.UTC(2026, 0, 1, 9, 0, 0),
    };
    this.now = this.o.startMs;
    this.nextCompactionAt = compactionEvery;
  }

  protected toolCall() {
    return toolCall(this.rng, this.toolSeq++);
  }

  protected thinkingPart() {
    return thinkingPart(this.rng);
  }

  protected image() {
    return image(this.rng, this.flavor, this.o.imageBytes);
  }

  protected toolBytes() {
    return toolBytes(this.rng);
  }

  protected assistantMsg(content: unknown[], stopReason: string, errorMessage?: string) {
    return assistantMessage(this.rng, MODELS_PI[this.modelIx], content, stopReason, () => this.tick(), errorMessage);
  }

  // ---- records ----------------------------------------------------------------------------------

  protected message(message: Record<string, unknown>): void {
    this.entry('message', { message }, typeof message.role === 'string' ? message.role : undefined);
  }

  /** Appends an entry with pi's key order `type,id,parentId,timestamp,…payload`. */
  protected entry(type: string, payload: Record<string, unknown>, role?: string): void {
    const id = this.newId();
    const rec = { type, id, parentId: this.leaf, timestamp: this.iso(), ...payload };
    this.push({ id, parentId: this.leaf, type, role }, JSON.stringify(rec));
  }

  /** `custom` and `custom_message` put the id envelope last (pi and omp key order). */
  protected customFirst(type: string, payload: Record<string, unknown>): void {
    const id = this.newId();
    const rec = { type, ...payload, id, parentId: this.leaf, timestamp: this.iso() };
    this.push({ id, parentId: this.leaf, type }, JSON.stringify(rec));
  }

  protected push(node: Node, line: string): void {
    this.nodes.push(node);
    this.byId.set(node.id, node);
    this.leaf = node.id;
    this.emitLine(line);
  }

  protected emitLine(line: string): void {
    this.out.push(line);
    this.bytes += Buffer.byteLength(line) + 1;
  }

  protected newId(): string {
    for (;;) {
      const id = this.rng.hex(8);
      if (!this.ids.has(id)) {
        this.ids.add(id);
        return id;
      }
    }
  }

  protected tick(): number {
    this.now += this.rng.int(200, 30000);
    return this.now;
  }

  protected iso(): string {
    return new Date(this.now).toISOString();
  }

  protected uuidv7(): string {
    const h = this.now.toString(16).padStart(12, '0') + '7' + this.rng.hex(3) + (8 + this.rng.int(0, 3)).toString(16) + this.rng.hex(15);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
  }
}
