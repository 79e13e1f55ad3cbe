// The pi v3 session being built from a Codex rollout: a linear chain (each entry's parent is the
// previous one), entries kept as objects until the end because an assistant message grows over
// several source lines (reasoning, text, tool calls of one response) and its usage may arrive later.
import { IdMaker } from './ids.ts';
import type { TextPart, UserPart } from './parts.ts';
import type { ToolCallPart } from './tools.ts';
import { type PiUsage as Usage, zeroUsage } from '../usage.ts';
import { addInto } from './usage.ts';

type Obj = Record<string, unknown>;
type ThinkingPart = { type: 'thinking'; thinking: string; thinkingSignature: string };
export type AssistantPart = TextPart | ThinkingPart | ToolCallPart;

export interface AssistantMessage {
  role: 'assistant';
  content: AssistantPart[];
  api: string;
  provider: string;
  model: string;
  usage: Usage;
  stopReason: 'stop' | 'toolUse';
  timestamp: number;
}

export interface Model {
  api: string;
  provider: string;
  model: string;
}

const ms = (iso: string) => {
  const t = Date.parse(iso);
  return Number.isFinite(t) ? t : 0;
};

export class SessionWriter {
  readonly entries: Obj[] = [];
  private readonly ids: IdMaker;
  private lastId: string | null = null;
  /** The assistant message items are being added to (one model response), if any. */
  private open: AssistantMessage | null = null;
  /** The latest assistant message, and whether a response's usage has been given to it. */
  private lastAssistant: AssistantMessage | null = null;
  private lastHasUsage = false;
  /** Usage reported before its response's items (older Codex writes the event first). */
  private pending: Usage | null = null;

  constructor(sessionId: string) {
    this.ids = new IdMaker(sessionId);
  }

  /** Appends an entry made from source line `line` (its `k`-th), with pi's key order. */
  private push(line: number, k: number, timestamp: string, type: string, payload: Obj): string {
    const id = this.ids.make(line, k);
    const env: Obj =
      type === 'custom' || type === 'custom_message'
        ? { type, ...payload, id, parentId: this.lastId, timestamp }
        : { type, id, parentId: this.lastId, timestamp, ...payload };
    this.entries.push(env);
    this.lastId = id;
    return id;
  }

  entry(line: number, k: number, timestamp: string, type: string, payload: Obj): string {
    this.close();
    return this.push(line, k, timestamp, type, payload);
  }

  user(line: number, k: number, timestamp: string, content: UserPart[]): void {
    this.close();
    // A turn's last usage can only belong to a response before this message.
    this.flushPending();
    this.push(line, k, timestamp, 'message', { message: { role: 'user', content, timestamp: ms(timestamp) } });
  }

  toolResult(line: number, k: number, timestamp: string, toolCallId: string, toolName: string, content: UserPart[], isError: boolean): void {
    this.close();
    this.push(line, k, timestamp, 'message', { message: { role: 'toolResult', toolCallId, toolName, content, isError, timestamp: ms(timestamp) } });
  }

  /** Adds a part to the current response's assistant message, starting one when none is open. */
  part(line: number, timestamp: string, model: Model, part: AssistantPart): void {
    if (!this.open) {
      const message: AssistantMessage = { role: 'assistant', content: [], ...model, usage: zeroUsage(), stopReason: 'stop', timestamp: ms(timestamp) };
      this.push(line, 0, timestamp, 'message', { message });
      this.open = message;
      this.lastAssistant = message;
      this.lastHasUsage = false;
      if (this.pending) {
        addInto(message.usage, this.pending);
        this.pending = null;
        this.lastHasUsage = true;
      }
    }
    this.open.content.push(part);
    if (part.type === 'toolCall') this.open.stopReason = 'toolUse';
  }

  /** Ends the current response (a tool output, a user message, a new turn…). */
  close(): void {
    this.open = null;
  }

  /** One response's usage: to the latest assistant message when it has none yet, else held for the next one. */
  usage(u: Usage): void {
    if (this.lastAssistant && !this.lastHasUsage) {
      addInto(this.lastAssistant.usage, u);
      this.lastHasUsage = true;
      return;
    }
    if (this.pending) addInto(this.pending, u);
    else this.pending = { ...u, cost: { ...u.cost } };
  }

  /** Held usage with no response after it goes to the latest one, so every counted token is kept. */
  flushPending(): void {
    if (this.pending && this.lastAssistant) {
      addInto(this.lastAssistant.usage, this.pending);
      this.pending = null;
    }
  }

  /** The entries as JSONL lines (each ending in "\n"). */
  lines(): string[] {
    this.close();
    this.flushPending();
    return this.entries.map((e) => `${JSON.stringify(e)}\n`);
  }
}
