// What a copy can leave out: thinking, signatures and encrypted reasoning, provider payloads, tool
// `details`, images, tool output past N lines. Each keeps the record a valid entry: same id and
// parent, parts replaced by parts of an allowed type, fields removed only where they are optional.

/** The strip options of a shared copy (all off by default). */
export interface StripOptions {
  thinking?: boolean;
  /** Thinking signatures, text/tool-call signatures, redacted and encrypted reasoning. */
  signatures?: boolean;
  /** `providerPayload`, `providerMetadata`, `rawBlock`, `contextSnapshot`. */
  providerPayloads?: boolean;
  /** A tool result's `details` (host data, never sent to a model). */
  toolDetails?: boolean;
  images?: boolean;
  /** Tool output longer than this many lines is cut (0 or absent: kept whole). */
  toolOutputLines?: number;
}

/** The text an image is replaced with. */
export const IMAGE_LEFT_OUT = '[image left out]';

type Obj = Record<string, unknown>;
const SIGNATURE_KEYS = ['thinkingSignature', 'textSignature', 'thoughtSignature'];
const PAYLOAD_KEYS = ['providerPayload', 'providerMetadata', 'rawBlock', 'contextSnapshot'];

const isObj = (x: unknown): x is Obj => !!x && typeof x === 'object' && !Array.isArray(x);

function dropKeys(o: Obj, keys: readonly string[]): boolean {
  let changed = false;
  for (const k of keys)
    if (k in o) {
      delete o[k];
      changed = true;
    }
  return changed;
}

/** Text cut to `max` lines, with a note of how many were left out. */
export function cutLines(text: string, max: number): string {
  let at = -1;
  for (let n = 0; n < max; n++) {
    at = text.indexOf('\n', at + 1);
    if (at < 0) return text;
  }
  const rest = text.slice(at + 1);
  if (!rest) return text;
  const more = rest.split('\n').length;
  return `${text.slice(0, at)}\n[… ${more} more line${more === 1 ? '' : 's'} left out]`;
}

function stripParts(content: unknown[], role: unknown, opts: StripOptions): { parts: unknown[]; changed: boolean } {
  let changed = false;
  const out: unknown[] = [];
  for (const p of content) {
    if (!isObj(p)) {
      out.push(p);
      continue;
    }
    const isThinking = p.type === 'thinking' || p.type === 'redactedThinking';
    if (opts.thinking && isThinking) {
      changed = true;
      continue;
    }
    if (opts.signatures && (p.type === 'redactedThinking' || (p.type === 'thinking' && p.redacted === true))) {
      changed = true;
      continue;
    }
    if (opts.images && p.type === 'image') {
      out.push({ type: 'text', text: IMAGE_LEFT_OUT });
      changed = true;
      continue;
    }
    if (opts.signatures) changed = dropKeys(p, SIGNATURE_KEYS) || changed;
    if (opts.providerPayloads) changed = dropKeys(p, PAYLOAD_KEYS) || changed;
    if (opts.toolOutputLines && role === 'toolResult' && p.type === 'text' && typeof p.text === 'string') {
      const cut = cutLines(p.text, opts.toolOutputLines);
      if (cut !== p.text) {
        p.text = cut;
        changed = true;
      }
    }
    out.push(p);
  }
  return { parts: out, changed };
}

/** Applies the strip options to a record (mutating it). Returns whether anything changed. */
export function stripRecord(record: Obj, opts: StripOptions): boolean {
  let changed = false;
  if (opts.providerPayloads) changed = dropKeys(record, PAYLOAD_KEYS) || changed;
  const m = record.type === 'message' && isObj(record.message) ? record.message : null;
  if (!m) return changed;
  if (opts.providerPayloads) changed = dropKeys(m, PAYLOAD_KEYS) || changed;
  if (opts.toolDetails && m.role === 'toolResult' && 'details' in m) {
    delete m.details;
    changed = true;
  }
  if (Array.isArray(m.content)) {
    const r = stripParts(m.content, m.role, opts);
    if (r.changed) {
      m.content = r.parts;
      changed = true;
    }
  }
  if (opts.images && Array.isArray(m.images) && m.images.length) {
    m.images = [];
    changed = true;
  }
  if (opts.toolOutputLines && (m.role === 'bashExecution' || m.role === 'pythonExecution') && typeof m.output === 'string') {
    const cut = cutLines(m.output, opts.toolOutputLines);
    if (cut !== m.output) {
      m.output = cut;
      changed = true;
    }
  }
  return changed;
}
