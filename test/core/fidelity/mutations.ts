// The robustness tests' material: valid base sessions, fast-check mutations of them (cut, splice,
// flip bytes, shuffle, duplicate and drop lines, reparent entries) and the invariants every
// parse of any input keeps.
import { modelMessageSchema } from 'ai';
import fc from 'fast-check';
import { expect } from 'vitest';
import { branch, children, context, leaves, parse, serialize, walkBranch } from '../../../src/core/index.ts';
import { generateSessionText } from '../../gen/session.ts';
import { firstDifference, joinLines, physicalLines, readBytes } from './support.ts';

export const enc = new TextEncoder();
export const MUTATION_RUNS = Number(process.env.FIDELITY_MUTATION_RUNS ?? 120);
// Timeouts are the only speed bound here ("does not hang"); generous because the machine is shared.
export const GENEROUS = 180_000;
export const BASES: Uint8Array[] = [
  enc.encode(
    generateSessionText({ seed: 3, targetBytes: 30_000, flavor: 'pi', imageBytes: [16, 200], compactionEvery: 8000, branchRate: 0.3, abortRate: 0.2 }),
  ),
  enc.encode(
    generateSessionText({ seed: 4, targetBytes: 30_000, flavor: 'omp', imageBytes: [16, 200], compactionEvery: 8000, branchRate: 0.3, abortRate: 0.2 }),
  ),
  readBytes('fixtures/pi/pi-random-101.jsonl'),
  readBytes('fixtures/omp/omp-shapes.jsonl'),
];

export type Mutation =
  | { kind: 'cut'; at: number }
  | { kind: 'splice'; at: number; insert: string }
  | { kind: 'flip'; at: number; xor: number }
  | { kind: 'shuffle'; seed: number }
  | { kind: 'duplicate'; line: number }
  | { kind: 'drop'; line: number }
  | { kind: 'reparent'; line: number; to: number; self: boolean }
  | { kind: 'crlf'; line: number }
  | { kind: 'value'; line: number; path: number[]; value: unknown };

export const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('cut' as const), at: fc.nat() }),
  fc.record({
    kind: fc.constant('splice' as const),
    at: fc.nat(),
    insert: fc.oneof(fc.string(), fc.constantFrom('\n', '{', '}\n{', '"', '\\', '\u2028', '\r\n', '\n\n', '{"type":"session","id":"x"}\n', 'null\n', '\ud800')),
  }),
  fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), xor: fc.integer({ min: 1, max: 255 }) }),
  fc.record({ kind: fc.constant('shuffle' as const), seed: fc.nat() }),
  fc.record({ kind: fc.constant('duplicate' as const), line: fc.nat() }),
  fc.record({ kind: fc.constant('drop' as const), line: fc.nat() }),
  fc.record({ kind: fc.constant('reparent' as const), line: fc.nat(), to: fc.nat(), self: fc.boolean() }),
  fc.record({ kind: fc.constant('crlf' as const), line: fc.nat() }),
  fc.record({
    kind: fc.constant('value' as const),
    line: fc.nat(),
    path: fc.array(fc.nat(), { minLength: 1, maxLength: 5 }),
    value: fc.oneof(
      fc.jsonValue({ maxDepth: 2 }),
      fc.constantFrom(null, '', [], {}, 0, 'blob:sha256:00', { type: 'image' }, { type: 'toolCall' }, [{ type: 'text' }]),
    ),
  }),
);

export function splitLines(bytes: Uint8Array): Uint8Array[] {
  return physicalLines(bytes).map((l) => bytes.slice(l.start, l.end));
}
export function joinAll(lines: Uint8Array[], final = true): Uint8Array {
  const parts: number[] = [];
  lines.forEach((l, i) => {
    for (const b of l) parts.push(b);
    if (final || i < lines.length - 1) parts.push(10);
  });
  return Uint8Array.from(parts);
}

/** Applies one mutation; positions are taken modulo the current size so every mutation applies. */
export function mutate(bytes: Uint8Array, m: Mutation): Uint8Array {
  const n = bytes.length;
  switch (m.kind) {
    case 'cut':
      return bytes.slice(0, n === 0 ? 0 : m.at % n);
    case 'splice': {
      const at = n === 0 ? 0 : m.at % (n + 1);
      const ins = enc.encode(m.insert);
      const out = new Uint8Array(n + ins.length);
      out.set(bytes.subarray(0, at));
      out.set(ins, at);
      out.set(bytes.subarray(at), at + ins.length);
      return out;
    }
    case 'flip': {
      if (n === 0) return bytes;
      const out = bytes.slice();
      out[m.at % n] ^= m.xor;
      return out;
    }
    case 'shuffle': {
      const lines = splitLines(bytes);
      let s = m.seed || 1;
      for (let i = lines.length - 1; i > 0; i--) {
        s = (s * 1103515245 + 12345) >>> 0;
        const j = s % (i + 1);
        [lines[i], lines[j]] = [lines[j], lines[i]];
      }
      return joinAll(lines);
    }
    case 'duplicate':
    case 'drop':
    case 'crlf': {
      const lines = splitLines(bytes);
      if (lines.length === 0) return bytes;
      const i = m.line % lines.length;
      if (m.kind === 'duplicate') lines.splice(i, 0, lines[i]);
      else if (m.kind === 'drop') lines.splice(i, 1);
      else lines[i] = Uint8Array.from([...lines[i], 13]);
      return joinAll(lines);
    }
    case 'value': {
      // Replace one value somewhere inside one record by arbitrary JSON (wrong types, nulls, …).
      const lines = splitLines(bytes);
      if (lines.length === 0) return bytes;
      const i = m.line % lines.length;
      let obj: unknown;
      try {
        obj = JSON.parse(new TextDecoder().decode(lines[i]));
      } catch {
        return bytes;
      }
      if (!obj || typeof obj !== 'object') return bytes;
      let holder = obj as Record<string, unknown>;
      for (let d = 0; d < m.path.length; d++) {
        const keys = Object.keys(holder);
        if (keys.length === 0) break;
        const k = keys[m.path[d] % keys.length];
        const next = holder[k];
        if (d === m.path.length - 1 || !next || typeof next !== 'object') {
          holder[k] = m.value;
          break;
        }
        holder = next as Record<string, unknown>;
      }
      lines[i] = enc.encode(JSON.stringify(obj));
      return joinAll(lines);
    }
    case 'reparent': {
      const lines = splitLines(bytes);
      const dec = new TextDecoder();
      const objs = lines.map((l) => {
        try {
          return JSON.parse(dec.decode(l)) as Record<string, unknown>;
        } catch {
          return null;
        }
      });
      const withId = objs.map((o, i) => (o && typeof o.id === 'string' && o.type !== 'session' ? i : -1)).filter((i) => i >= 0);
      if (withId.length === 0) return bytes;
      const i = withId[m.line % withId.length];
      const target = objs[withId[m.to % withId.length]]!;
      // Point at a later entry (creating cycles through descendants), at itself, or at nothing.
      objs[i]!.parentId = m.self ? objs[i]!.id : m.to % 7 === 0 ? 'nowhere0' : target.id;
      lines[i] = enc.encode(JSON.stringify(objs[i]));
      return joinAll(lines);
    }
  }
}

/** Everything that must hold for any input. */
export function checkInvariants(bytes: Uint8Array): void {
  const session = parse(bytes);
  const lines = physicalLines(bytes);
  const lineCount = Math.max(1, lines.length);
  for (const p of session.problems) {
    expect(Number.isInteger(p.line), `problem line ${p.line}`).toBe(true);
    expect(p.line).toBeGreaterThanOrEqual(1);
    expect(p.line).toBeLessThanOrEqual(lineCount);
    expect(typeof p.message).toBe('string');
  }
  // Kept records are whole physical lines, in order, and serialize gives back exactly them.
  const byLine = new Map(lines.map((l) => [l.line, l]));
  const kept = session.records.map((r) => {
    const l = byLine.get(r.line);
    expect(l && [l.start, l.end]).toEqual([r.start, r.end]);
    return l!;
  });
  expect(firstDifference(serialize(session, bytes), joinLines(bytes, kept))).toBeNull();
  // Tree walks end and never repeat an entry.
  const ids = branch(session).map((e) => e.id);
  expect(new Set(ids).size).toBe(ids.length);
  for (const e of session.entries.slice(-5)) {
    if (typeof e.id !== 'string') continue;
    const w = walkBranch(session, e.id);
    expect(new Set(w.entries.map((x) => x.id)).size).toBe(w.entries.length);
    for (const p of w.problems) expect(p.line).toBeGreaterThanOrEqual(1);
  }
  leaves(session);
  children(session, null);
  // Whatever survived, the context built from it is still a valid AI SDK message list.
  for (const m of context(branch(session))) expect(modelMessageSchema.safeParse(m).success, JSON.stringify(m).slice(0, 200)).toBe(true);
}
