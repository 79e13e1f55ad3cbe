// Which agent wrote a session file: pi or omp (oh-my-pi). Both write the same v3 format; each leaves
// marks the other never writes (session-format.md §1.3, §2, §3). Used to offer only the resume
// command of the agent that wrote the file.
import type { SessionRecord } from '../schema/types.ts';

/** The agent that wrote a file, when its records say so: pi or omp, or Claude Code or Codex (read through core/formats). */
export type Agent = 'pi' | 'omp' | 'claude-code' | 'codex';

/** Every agent, in the order the app lists them. */
export const AGENTS: readonly Agent[] = ['pi', 'omp', 'claude-code', 'codex'];

/** Whether a value names an agent. */
export function isAgent(x: unknown): x is Agent {
  return typeof x === 'string' && (AGENTS as readonly string[]).includes(x);
}

/** How the app names an agent to people. */
export function agentLabel(agent: Agent | null | undefined): string {
  return agent === 'claude-code' ? 'Claude Code' : agent === 'codex' ? 'Codex' : (agent ?? 'pi');
}

/** Whether the file was written by another agent than pi or omp: read through its pi conversion, never written to. */
export function isForeignAgent(agent: Agent | null | undefined): agent is 'claude-code' | 'codex' {
  return agent === 'claude-code' || agent === 'codex';
}

/** Entry types only omp writes (§2.1, §2.10). */
const OMP_TYPES = new Set([
  'title_change',
  'reset_boundary',
  'model_usage',
  'service_tier_change',
  'ttsr_injection',
  'session_init',
  'mode_change',
  'credential_pin',
]);
/** Message roles only omp stores (§3.6, §3.8). */
const OMP_ROLES = new Set(['developer', 'fileMention', 'pythonExecution']);
/** Header keys only omp writes (§2.11; `title` alone is not one: Rho writes it too, §0.4.1). */
const OMP_HEADER_KEYS = ['titleSource', 'providerPromptCacheKey', 'additionalDirectories'];

/**
 * What one record says about its writer: `'omp'` or `'pi'` for a mark only that agent leaves,
 * `null` for a record both write alike (or Rho's own, which writes both tools' keys, §0.4.2).
 * `kind` is the record's place in the file as the parser classified it (`title`: omp's slot).
 */
export function agentMark(record: Record<string, unknown>, kind: SessionRecord['kind']): 'pi' | 'omp' | null {
  if (kind === 'title') return 'omp';
  if (kind === 'header') {
    if (OMP_HEADER_KEYS.some((k) => k in record)) return 'omp';
    // v1 and v2 predate omp: only pi wrote them.
    return typeof record.version !== 'number' || record.version < 3 ? 'pi' : null;
  }
  const type = record.type;
  if (typeof type !== 'string') return null;
  if (OMP_TYPES.has(type)) return 'omp';
  switch (type) {
    case 'session_info':
      return 'pi';
    case 'model_change': {
      const omp = typeof record.model === 'string';
      const pi = typeof record.provider === 'string' && typeof record.modelId === 'string';
      return omp === pi ? null : omp ? 'omp' : 'pi';
    }
    case 'thinking_level_change':
      return 'configured' in record ? 'omp' : null;
    case 'custom_message':
      return 'attribution' in record ? 'omp' : null;
    case 'compaction':
    case 'branch_summary':
      return 'fromExtension' in record ? 'omp' : 'fromHook' in record ? 'pi' : null;
    case 'message': {
      const message = record.message as { role?: unknown } | null;
      return message && typeof message === 'object' && OMP_ROLES.has(message.role as string) ? 'omp' : null;
    }
    default:
      return null;
  }
}

/**
 * Folds marks into a verdict: omp as soon as one record carries an omp mark (omp reads and
 * continues pi's files, never the other way), else pi when one carries a pi mark, else null.
 */
export function addAgentMark(so: Agent | null, mark: Agent | null): Agent | null {
  if (isForeignAgent(so)) return so;
  return so === 'omp' || mark === 'omp' ? 'omp' : (mark ?? so);
}
