// Codex content items (Responses API shapes) → pi content parts (session-format.md §3.1).
type Obj = Record<string, unknown>;

export interface TextPart {
  type: 'text';
  text: string;
  textSignature?: string;
}
export interface ImagePart {
  type: 'image';
  data: string;
  mimeType: string;
}
export type UserPart = TextPart | ImagePart;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
export { isObj };

const DATA_URL = /^data:([^;,]+);base64,(.*)$/s;

/** An `input_image`'s `image_url` as a pi image part (a data URL), else a text part naming the address. */
export function imagePart(url: unknown): UserPart {
  const m = typeof url === 'string' ? DATA_URL.exec(url) : null;
  if (m) return { type: 'image', data: m[2], mimeType: m[1] };
  return { type: 'text', text: `[image: ${typeof url === 'string' ? url : 'not stored'}]` };
}

/** `input_text` / `output_text` / `refusal` / `input_image` items (any role) as pi parts; unknown items dropped. */
export function contentParts(content: unknown): UserPart[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (!Array.isArray(content)) return [];
  const out: UserPart[] = [];
  for (const c of content) {
    if (!isObj(c)) continue;
    if (c.type === 'input_image') out.push(imagePart(c.image_url));
    else if (typeof c.text === 'string') out.push({ type: 'text', text: c.text });
    else if (typeof c.refusal === 'string') out.push({ type: 'text', text: c.refusal });
  }
  return out;
}

// What Codex itself puts in a user-role message around the user's words (codex-rs
// `is_contextual_user_message` and the wrappers of later versions): context for the model, not typed.
const CONTEXT_PREFIXES = [
  '<environment_context>',
  '<user_instructions>',
  '# AGENTS.md instructions',
  '<INSTRUCTIONS>',
  '<turn_aborted>',
  '<user_shell_command>',
  '<skill>',
  '<subagent_notification>',
  '<permissions instructions>',
  '<collaboration_mode>',
  '<apps_instructions>',
  '<skills_instructions>',
  '<plugins_instructions>',
  '<recommended_plugins>',
  '<goal_context>',
  '<additional_context>',
  '<internal_model_context>',
  '<model_switch>',
  '<token_budget>',
  '<hook_prompt',
];

const SHELL =
  /^<user_shell_command>\n<command>\n([\s\S]*?)\n<\/command>\n<result>\n(?:Exit code: (-?\d+)\n)?(?:Duration: [^\n]*\n)?(?:Output:\n)?([\s\S]*?)\n?<\/result>\n<\/user_shell_command>$/;

/** A command the user ran themselves (`!cmd`), as Codex tells the model, read back; null for other text. */
export function userShellCommand(text: string): { command: string; output: string; exitCode: number | undefined } | null {
  const m = SHELL.exec(text.trim());
  return m ? { command: m[1], output: m[3], exitCode: m[2] === undefined ? undefined : Number(m[2]) } : null;
}

/** True for a text Codex adds as context (environment, AGENTS.md, interruption markers), not the user's own. */
export function isContextText(text: string): boolean {
  const t = text.trimStart();
  return CONTEXT_PREFIXES.some((p) => t.startsWith(p));
}

/** A Responses `phase`/id pair as pi's openai-responses provider stores it on a text part (`encodeTextSignatureV1`). */
export function textSignature(id: unknown, phase: unknown): string | undefined {
  if (typeof id !== 'string' || !id) return undefined;
  const sig: Obj = { v: 1, id };
  if (typeof phase === 'string' && phase) sig.phase = phase;
  return JSON.stringify(sig);
}

/** A reasoning item as pi stores it (openai-responses `output_item.done`): the text, and the item JSON as signature. */
export function thinkingPart(item: Obj): { type: 'thinking'; thinking: string; thinkingSignature: string } {
  const texts = (v: unknown) =>
    Array.isArray(v)
      ? v
          .filter(isObj)
          .map((s) => (typeof s.text === 'string' ? s.text : ''))
          .filter((s) => s)
      : [];
  const summary = texts(item.summary).join('\n\n');
  const content = texts(item.content).join('\n\n');
  // The item as it goes back to the Responses API: Codex-only keys dropped, nulls left out.
  const replay: Obj = { type: 'reasoning' };
  if (typeof item.id === 'string') replay.id = item.id;
  replay.summary = Array.isArray(item.summary) ? item.summary : [];
  if (Array.isArray(item.content)) replay.content = item.content;
  if (typeof item.encrypted_content === 'string') replay.encrypted_content = item.encrypted_content;
  return { type: 'thinking', thinking: summary || content, thinkingSignature: JSON.stringify(replay) };
}
