// Model names (§0.5.1–2): pi's "provider/modelId" ↔ req_llm-style "provider_name:modelId", and the
// model in effect on a branch.
import type { Entry } from '../schema/types.ts';

/** "openai-codex/gpt-5" (pi) → "openai_codex:gpt-5": split at the first "/", provider "-" → "_". */
export function fromPi(spec: string): string {
  const slash = spec.indexOf('/');
  if (slash < 0) return spec.replaceAll('-', '_');
  return `${spec.slice(0, slash).replaceAll('-', '_')}:${spec.slice(slash + 1)}`;
}

/** "openai_codex:gpt-5" → "openai-codex/gpt-5" (pi): split at the first ":", provider "_" → "-". */
export function toPi(spec: string): string {
  const colon = spec.indexOf(':');
  if (colon < 0) return spec.replaceAll('_', '-');
  return `${spec.slice(0, colon).replaceAll('_', '-')}/${spec.slice(colon + 1)}`;
}

const THINKING_SUFFIX = /:(off|minimal|low|medium|high|xhigh|max|auto)$/;
// omp's routing suffix "@<slug>"; a purely numeric one is a real model version (Vertex "model@20250514").
const ROUTING_SUFFIX = /@(?!\d+$)[^/:@]+$/;

/** omp's `model` string without its selector suffixes (`:high`, `@upstream`), still "provider/modelId". */
export function stripSelector(model: string): string {
  return model.replace(THINKING_SUFFIX, '').replace(ROUTING_SUFFIX, '');
}

/** The pi "provider/modelId" a `model_change` entry names (omp's `model` or pi's `provider`+`modelId`). */
export function modelChangeSpec(entry: Entry): string | null {
  if (typeof entry.model === 'string' && entry.model !== '') return stripSelector(entry.model);
  if (typeof entry.provider === 'string' && typeof entry.modelId === 'string') return `${entry.provider}/${entry.modelId}`;
  return null;
}

/**
 * The req_llm model spec in effect on a branch: the last `model_change` whose role is absent or
 * "default" (either shape), else the last assistant's provider/model, else null.
 */
export function model(branch: readonly Entry[]): string | null {
  return lastModelChange(branch) ?? lastAssistantModel(branch);
}

/** The spec of the last `model_change` on a branch whose role is absent or "default", else null. */
export function lastModelChange(branch: readonly Entry[]): string | null {
  for (let i = branch.length - 1; i >= 0; i--) {
    const e = branch[i];
    if (e.type !== 'model_change' || (e.role !== undefined && e.role !== 'default')) continue;
    const spec = modelChangeSpec(e);
    if (spec) return fromPi(spec);
  }
  return null;
}

/** The provider/model of the last assistant message on a branch that names both, else null. */
export function lastAssistantModel(branch: readonly Entry[]): string | null {
  for (let i = branch.length - 1; i >= 0; i--) {
    const m = branch[i].message as Record<string, unknown> | undefined;
    if (branch[i].type === 'message' && m?.role === 'assistant' && typeof m.provider === 'string' && typeof m.model === 'string') {
      return fromPi(`${m.provider}/${m.model}`);
    }
  }
  return null;
}
