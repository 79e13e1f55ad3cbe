import { closeSync, openSync, readFileSync, readSync, writeFileSync } from 'node:fs';
import * as core from '../../src/core/index.ts';
import { decodeEnvelopeIndex, encodeEnvelopeIndex, fingerprintOf } from '../../src/core/envelope-file.ts';
import { gc } from './harness.ts';
const file = process.argv[2];
const buf = readFileSync(file);
const bytes = new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
const idx = '/tmp/reopen-exp.idx';
writeFileSync(idx, encodeEnvelopeIndex(core.indexEnvelopes(bytes), fingerprintOf(bytes.length, (a, b) => bytes.subarray(a, b))));
const size = bytes.length;
const t: Record<string, number[]> = {};
const time = (name: string, f: () => unknown) => { gc(); const c0 = process.cpuUsage(); const w0 = performance.now(); f(); const w = performance.now() - w0; const c = process.cpuUsage(c0); (t[name] ??= []).push(Math.round((c.user + c.system) / 100) / 10, Math.round(w * 10) / 10); };
const fd = openSync(file, 'r');
const read = (s: number, e: number) => { const o = new Uint8Array(Math.max(0, Math.min(e, size) - s)); readSync(fd, o, 0, o.length, s); return o; };
let decoded: any;
for (let r = 0; r < 5; r++) {
  time('readIdx', () => readFileSync(idx));
  const f = new Uint8Array(readFileSync(idx));
  time('decode', () => (decoded = decodeEnvelopeIndex(f, read)));
  time('fp', () => fingerprintOf(size, read));
  time('branch', () => core.branchOfIndex(decoded.index));
  const br = core.branchOfIndex(decoded.index).slice(-50);
  time('bodies', () => core.bodiesOf(decoded.index, br));
  time('tail', () => core.tailScreen(bytes, 50));
}
console.log(JSON.stringify(t), decoded.index.ids.length, readFileSync(idx).length);
