// A session's index record from a scan of its file, and the scan of a stored file (another agent's
// file is converted, and the conversion kept for the pi view).
import { diskChunks } from './chunks.ts';
import { type Conversion, createAnyScanner, keepConversion } from './foreign.ts';
import type { createLinks } from './links.ts';
import { idFromFileName, SESSIONS_DIR } from './names.ts';
import type { SessionScan } from './scan.ts';
import type { Disk, SessionSummary } from './types.ts';

type Links = ReturnType<typeof createLinks>;

/** The index record of session `id` at `path`, of `size` bytes, from its scan. */
export function summaryOf(
  links: Links,
  id: string,
  path: string,
  size: number,
  scan: Pick<SessionScan, 'digest'>,
  modified: number,
  variantOf?: string,
): SessionSummary {
  const d = scan.digest;
  const s: SessionSummary = {
    id,
    path,
    title: d.title,
    firstMessage: d.firstMessage,
    cwd: d.cwd,
    created: d.created,
    modified,
    size,
    entryCount: d.entryCount,
    branchCount: d.branchCount,
    model: d.model,
    totals: { ...d.totals },
    usage: d.usage,
    problems: d.problems,
  };
  if (d.agent) s.agent = d.agent;
  // Another agent's file: what the pi view reads is its conversion, of this many bytes.
  const conversion = (scan as { conversion?: Conversion }).conversion;
  if (conversion) s.piSize = conversion.bytes.length;
  // A variant keeps the header id of the session it diverged from.
  const headerId = d.header?.id;
  const of = variantOf ?? (headerId !== undefined && headerId !== id ? headerId : undefined);
  if (of !== undefined) s.variantOf = of;
  const link = links.peek(id);
  if (link) {
    s.parentOf = link.parentOf;
    s.subagent = link.subagent;
  }
  return s;
}

/** The scan a scanner gave for the file at `path`, with another agent's conversion kept beside it. */
export async function keptScan(disk: Disk, path: string, scan: ReturnType<ReturnType<typeof createAnyScanner>['finish']>): Promise<SessionScan> {
  const id = idFromFileName(path.slice(SESSIONS_DIR.length + 1));
  if (scan.conversion && scan.key && id !== null) await keepConversion(disk, id, scan.key, scan.conversion);
  return scan;
}

/** One pass over a stored file. */
export async function scanStored(disk: Disk, path: string): Promise<SessionScan> {
  const scanner = createAnyScanner({ file: path.slice(SESSIONS_DIR.length + 1) });
  for await (const chunk of diskChunks(disk, path)) scanner.push(chunk);
  return keptScan(disk, path, scanner.finish());
}
