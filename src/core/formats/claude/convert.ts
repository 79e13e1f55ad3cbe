// A Claude Code transcript → a pi v3 session. One pass over the lines in file order (a
// line whose parent comes later waits for it, order.ts); each line's entries depend only on the lines
// before it (plus the usage of its own API response), so appending to the source changes only the
// converted tail. The choices are listed in README.md beside this file.
import type { ConvertOptions, Converted } from '../types.ts';
import { Converter } from './converter.ts';
import { fnv8 } from './ids.ts';
import { leafLast } from './order.ts';
import { factsOf, readRecords } from './records.ts';
import type { Json } from './content.ts';

export function claudeToPi(bytes: Uint8Array, options: ConvertOptions = {}): Converted {
  const { lines, problems } = readRecords(bytes);
  const facts = factsOf(lines);
  const started = facts.started ?? new Date(0).toISOString();
  const header: Json = { type: 'session', version: 3, id: '', timestamp: started, cwd: facts.cwd };
  if (facts.agentId !== null) {
    header.id = `agent-${facts.agentId}`;
    if (facts.sessionId) header.parentSession = facts.sessionId;
  } else header.id = facts.sessionId ?? sessionIdOfName(options.file) ?? `claude-${fnv8(options.file ?? String(bytes.length))}`;
  const c = new Converter(lines, problems, started);
  c.run(lines);
  const entries = leafLast(c.out, c.leafId, c.side);
  let text = `${JSON.stringify(header)}\n`;
  for (const e of entries) text += `${JSON.stringify(e)}\n`;
  problems.sort((a, b) => a.line - b.line);
  return { format: 'claude-code', text, problems };
}

/** Claude Code names a transcript `<session id>.jsonl`: the id, for a file whose lines carry none. */
function sessionIdOfName(file: string | undefined): string | null {
  const stem =
    file
      ?.split(/[/\\]/)
      .pop()
      ?.replace(/\.jsonl$/i, '') ?? '';
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(stem) ? stem.toLowerCase() : null;
}
