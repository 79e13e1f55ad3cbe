// The command that resumes a session on the computer it came from, in the agent that wrote it.
import type { Agent } from './agent.ts';

/** What the command needs to know about a session (from its header). */
export interface ResumeTarget {
  /** The header's session id. */
  id: string;
  /** The header's cwd ('' when absent). */
  cwd: string;
  /** The header's timestamp (ISO, '' when absent). */
  created: string;
  /** The agent that wrote the file, or null when its records do not say (both are offered). */
  agent: Agent | null;
}

/** One command to copy. */
export interface ResumeCommand {
  agent: Agent;
  command: string;
}

/**
 * pi's session directory name for a cwd (pi 0.73.1 `getDefaultSessionDir`): the cwd without a
 * leading `/` or `\`, every `/`, `\` and `:` turned into `-`, between `--` and `--`.
 */
export function piSessionDir(cwd: string): string {
  return `--${cwd.replace(/^[/\\]/, '').replace(/[/\\:]/g, '-')}--`;
}

/**
 * pi's file name for a session (pi `newSession`, spec §1.5): the header timestamp with every `:`
 * and `.` turned into `-`, `_`, the session id, `.jsonl`.
 */
export function piFileName(id: string, created: string): string {
  return `${created.replace(/[:.]/g, '-')}_${id}.jsonl`;
}

/** Quotes a word for a POSIX shell when it needs it. */
function quote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * pi: `pi --session ~/.pi/agent/sessions/<cwd dir>/<file name>`, where pi keeps the file (pi opens
 * it in the session's own cwd, from any directory). Without a cwd or a timestamp the path cannot
 * be known: `pi --session <id>`, which pi resolves by id across its projects (`resolveSessionPath`).
 */
export function piResumeCommand(t: Pick<ResumeTarget, 'id' | 'cwd' | 'created'>): string {
  if (!t.cwd || !t.created) return `pi --session ${quote(t.id)}`;
  // `~/` stays outside the quotes so the shell expands it.
  return `pi --session ~/${quote(`.pi/agent/sessions/${piSessionDir(t.cwd)}/${piFileName(t.id, t.created)}`)}`;
}

/**
 * omp: its own resume command (omp `resumeCommand(sessionId, cwd)`): back into the session's cwd,
 * then `omp --allow-home --resume <id>` (omp keeps sessions per cwd; `--allow-home` stops it
 * moving to a temp dir when the cwd is the home directory). Without a cwd, `omp --resume <id>`.
 */
export function ompResumeCommand(t: Pick<ResumeTarget, 'id' | 'cwd'>): string {
  if (!t.cwd) return `omp --resume ${quote(t.id)}`;
  return `cd '${t.cwd.replace(/'/g, `'\\''`)}' && omp --allow-home --resume ${quote(t.id)}`;
}

/** The resume commands to offer: only the writer's, or both pi's and omp's when the file does not say. */
export function resumeCommands(t: ResumeTarget): ResumeCommand[] {
  // Claude Code and Codex files: the id here is their pi conversion's, not one their agent knows;
  // they go on in pi through "Export as a pi session".
  if (t.agent === 'claude-code' || t.agent === 'codex') return [];
  const out: ResumeCommand[] = [];
  if (t.agent !== 'omp') out.push({ agent: 'pi', command: piResumeCommand(t) });
  if (t.agent !== 'pi') out.push({ agent: 'omp', command: ompResumeCommand(t) });
  return out;
}
