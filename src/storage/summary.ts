// A session's index record from what a reading of its file found, and the reading of a stored file
// (another agent's file comes with its pi conversion, kept for the pi view).
import { forkedFrom } from '../core/index.ts';
import { diskChunks } from './chunks.ts';
import { keepDerived } from './derived.ts';
import type { createLinks } from './links.ts';
import { idFromFileName, SESSIONS_DIR } from './names.ts';
import type { Disk, SessionReader, SessionSummary, StoredRead } from './types.ts';

type Links = ReturnType<typeof createLinks>;

/** The index record of session `id` at `path`, of `size` bytes, from its scan. */
export function summaryOf(
  links: Links,
  id: string,
  path: string,
  size: number,
  scan: Pick<StoredRead, 'digest' | 'derived'>,
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
    date: d.date,
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
  if (scan.derived) s.piSize = scan.derived.length;
  // A variant keeps the header id of the session it diverged from.
  const headerId = d.header?.id;
  const of = variantOf ?? (headerId !== undefined && headerId !== id ? headerId : undefined);
  if (of !== undefined) s.variantOf = of;
  // Claude Code's and Codex's parentSession names the session that spawned a subagent (linked as parentOf), not a fork.
  const fork = d.agent === 'claude-code' || d.agent === 'codex' ? null : forkedFrom(d.header?.parentSession);
  if (fork !== null) s.forkOf = fork;
  const link = links.peek(id);
  if (link) {
    s.parentOf = link.parentOf;
    s.subagent = link.subagent;
  }
  return s;
}

/** What a reading gave for the file at `path`, with another agent's conversion kept beside it. */
export async function keptRead(disk: Disk, path: string, read: StoredRead): Promise<StoredRead> {
  const id = idFromFileName(path.slice(SESSIONS_DIR.length + 1));
  if (read.derived && id !== null) await keepDerived(disk, id, path, read.derived);
  return read;
}

/** One pass over a stored file. */
export async function readStored(disk: Disk, path: string, reader: SessionReader): Promise<StoredRead> {
  const reading = reader(path.slice(SESSIONS_DIR.length + 1));
  for await (const chunk of diskChunks(disk, path)) reading.push(chunk);
  return keptRead(disk, path, reading.finish());
}
