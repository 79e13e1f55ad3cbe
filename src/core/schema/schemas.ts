// zod schemas of the header, the title slot and every entry type of pi and omp (§1–§2), loose so
// unknown fields pass. `entryProblem` turns a failed check into a problem on the entry's line.
import { z } from 'zod';
import { MessageSchema, TextOrImageSchema, UsageSchema } from './message-schemas.ts';
import { isSurelyValid } from './fast-check-entry.ts';
import { clip, problem } from '../read/problems.ts';
import type { Problem } from './types.ts';

export * from './message-schemas.ts';

/** The session header line (§1.2). */
export const HeaderSchema = z.looseObject({
  type: z.literal('session'),
  version: z.number().optional(),
  id: z.string(),
  timestamp: z.string(),
  cwd: z.string().optional(),
  parentSession: z.string().optional(),
  title: z.string().optional(),
  titleSource: z.enum(['auto', 'user']).optional(),
  additionalDirectories: z.array(z.string()).optional(),
  previousSessionFiles: z.array(z.string()).optional(),
  providerPromptCacheKey: z.string().optional(),
});
/** omp's title slot (§1.3); the byte width is not checked on read. */
export const TitleSlotSchema = z.looseObject({
  type: z.literal('title'),
  v: z.literal(1),
  title: z.string(),
  source: z.enum(['auto', 'user']).optional(),
  updatedAt: z.string(),
  pad: z.string(),
});

/** Fields every entry carries (§1.4). Any string is accepted as an id. */
export const EnvelopeSchema = z.looseObject({
  type: z.string(),
  id: z.string(),
  parentId: z.string().nullable(),
  timestamp: z.string(),
});
const entry = <T extends string, S extends z.core.$ZodLooseShape>(type: T, shape: S) => EnvelopeSchema.extend({ type: z.literal(type), ...shape });

/** `message` (§2.2). */
export const MessageEntrySchema = entry('message', { message: MessageSchema });
/** `model_change`, pi's `{provider, modelId}` and/or omp's `{model, role?}` (§2.3). */
export const ModelChangeEntrySchema = entry('model_change', {
  provider: z.string().optional(),
  modelId: z.string().optional(),
  model: z.string().optional(),
  role: z.string().optional(),
  resolvedModelIsFallback: z.boolean().optional(),
});
/** `thinking_level_change` (§2.4); omp may write null. */
export const ThinkingLevelChangeEntrySchema = entry('thinking_level_change', {
  thinkingLevel: z.string().nullable().optional(),
  configured: z.string().nullable().optional(),
});
/** `compaction` (§2.5). */
export const CompactionEntrySchema = entry('compaction', {
  summary: z.string(),
  firstKeptEntryId: z.string(),
  tokensBefore: z.number(),
  details: z.unknown().optional(),
  fromHook: z.boolean().optional(),
  fromExtension: z.boolean().optional(),
  shortSummary: z.string().optional(),
  tokensAfter: z.number().optional(),
  method: z.string().optional(),
});
/** `branch_summary` (§2.6). */
export const BranchSummaryEntrySchema = entry('branch_summary', {
  fromId: z.string(),
  summary: z.string(),
  details: z.unknown().optional(),
  fromHook: z.boolean().optional(),
  fromExtension: z.boolean().optional(),
});
/** `custom`: extension state, never in context (§2.7). */
export const CustomEntrySchema = entry('custom', { customType: z.string(), data: z.unknown().optional() });
/** `custom_message`: injected message, in context (§2.8). */
export const CustomMessageEntrySchema = entry('custom_message', {
  customType: z.string(),
  content: z.union([z.string(), z.array(TextOrImageSchema)]),
  display: z.boolean(),
  details: z.unknown().optional(),
  attribution: z.enum(['user', 'agent']).optional(),
});
/** `label` (§2.9). */
export const LabelEntrySchema = entry('label', { targetId: z.string(), label: z.string().optional() });
/** pi's `session_info` (§2.9). */
export const SessionInfoEntrySchema = entry('session_info', { name: z.string().optional() });
/** omp's `title_change` (§2.9). */
export const TitleChangeEntrySchema = entry('title_change', {
  title: z.string(),
  source: z.enum(['auto', 'user']),
  previousTitle: z.string().optional(),
  trigger: z.string().optional(),
});
/** omp's `reset_boundary` (§2.10). */
export const ResetBoundaryEntrySchema = entry('reset_boundary', {});
/** omp's `model_usage` (§2.10). */
export const ModelUsageEntrySchema = entry('model_usage', {
  purpose: z.string(),
  role: z.string().optional(),
  api: z.string(),
  provider: z.string(),
  model: z.string(),
  usage: UsageSchema,
  stopReason: z.string(),
  errorMessage: z.string().optional(),
});
/** omp's `service_tier_change` (§2.10); legacy scalars are accepted. */
export const ServiceTierChangeEntrySchema = entry('service_tier_change', {
  serviceTier: z.union([z.null(), z.string(), z.record(z.string(), z.unknown())]),
});
/** omp's `ttsr_injection` (§2.10). */
export const TtsrInjectionEntrySchema = entry('ttsr_injection', { injectedRules: z.array(z.string()) });
/** omp's `session_init` (§2.10). */
export const SessionInitEntrySchema = entry('session_init', { systemPrompt: z.string(), task: z.string(), tools: z.array(z.string()) });
/** omp's `mode_change` (§2.10). */
export const ModeChangeEntrySchema = entry('mode_change', { mode: z.string(), data: z.record(z.string(), z.unknown()).optional() });
/** omp's `credential_pin` (§2.10). */
export const CredentialPinEntrySchema = entry('credential_pin', { provider: z.string(), hash: z.string() });

/** Schema of each known entry type. */
export const ENTRY_SCHEMAS = {
  message: MessageEntrySchema,
  model_change: ModelChangeEntrySchema,
  thinking_level_change: ThinkingLevelChangeEntrySchema,
  compaction: CompactionEntrySchema,
  branch_summary: BranchSummaryEntrySchema,
  custom: CustomEntrySchema,
  custom_message: CustomMessageEntrySchema,
  label: LabelEntrySchema,
  session_info: SessionInfoEntrySchema,
  title_change: TitleChangeEntrySchema,
  reset_boundary: ResetBoundaryEntrySchema,
  model_usage: ModelUsageEntrySchema,
  service_tier_change: ServiceTierChangeEntrySchema,
  ttsr_injection: TtsrInjectionEntrySchema,
  session_init: SessionInitEntrySchema,
  mode_change: ModeChangeEntrySchema,
  credential_pin: CredentialPinEntrySchema,
} as const;
const KNOWN_TYPES: readonly string[] = Object.keys(ENTRY_SCHEMAS);

/** An entry of a type neither tool knows: kept, only the envelope is checked. */
export const UnknownEntrySchema = EnvelopeSchema.extend({ type: z.string().refine((t) => !KNOWN_TYPES.includes(t)) });

/** Any entry: dispatched on `type`, loose; unknown types pass with a valid envelope. */
export const EntrySchema = z.union([
  z.discriminatedUnion('type', Object.values(ENTRY_SCHEMAS) as unknown as [typeof MessageEntrySchema, ...(typeof MessageEntrySchema)[]]),
  UnknownEntrySchema,
]);

/** The schema that checks an entry of this type (the envelope alone for unknown types). */
export function schemaFor(type: unknown): z.ZodType {
  return (typeof type === 'string' && (ENTRY_SCHEMAS as Record<string, z.ZodType>)[type]) || EnvelopeSchema;
}

// zod's ahead-of-time compiled clones of the same schemas (several times faster per entry); where
// `new Function` is not allowed (a strict CSP) zod hands back the schema itself, same verdicts.
// A compile costs as much as checking a few hundred entries with the schema itself (tens of ms for
// the message schema), so a type is compiled once it has been checked `COMPILE_AFTER` times: a
// file with a few odd entries (most pass `isSurelyValid` and are never checked here) pays no compile.
const COMPILE_AFTER = 64;
const compiled = new Map<string, z.ZodType>();
const checks = new Map<string, number>();
function validatorFor(type: unknown): z.ZodType {
  const key = typeof type === 'string' && type in ENTRY_SCHEMAS ? type : '';
  let schema = compiled.get(key);
  if (schema) return schema;
  const n = (checks.get(key) ?? 0) + 1;
  checks.set(key, n);
  if (n < COMPILE_AFTER) return schemaFor(key);
  compiled.set(key, (schema = z.core.compile(schemaFor(key))));
  return schema;
}

/** Checks one entry; a failure is an `invalid-entry` warning on its line (the entry stays). */
export function entryProblem(value: unknown, line: number, detail = true): Problem | null {
  const type = (value as { type?: unknown }).type;
  if (isSurelyValid(value)) return null;
  const schema = validatorFor(type);
  // validate() runs the compiled assert-only check (no output copy); issues are gathered only on failure.
  if (schema.validate(value)) return null;
  const what = typeof type === 'string' ? clip(type, 40) : 'entry';
  // Without detail (a caller that keeps only the count and the first problem): the issues, the
  // costly part of a failed check, are not gathered.
  if (!detail) return problem(line, 'invalid-entry', `${what} does not match its schema`);
  const result = schema.safeParse(value);
  if (result.success) return null;
  const issues = result.error.issues.slice(0, 3).map((i) => `${i.path.join('.') || '(entry)'}: ${i.message}`);
  const more = result.error.issues.length > 3 ? ` (+${result.error.issues.length - 3} more)` : '';
  return problem(line, 'invalid-entry', `${what} does not match its schema: ${issues.join('; ')}${more}`);
}

/** The header as the schema sees it (inferred shapes take the bare name). */
export type HeaderShape = z.infer<typeof HeaderSchema>;
/** A compaction entry. */
export type CompactionEntry = z.infer<typeof CompactionEntrySchema>;
/** A message entry. */
export type MessageEntry = z.infer<typeof MessageEntrySchema>;
/** A custom_message entry. */
export type CustomMessageEntry = z.infer<typeof CustomMessageEntrySchema>;
/** A model_change entry. */
export type ModelChangeEntry = z.infer<typeof ModelChangeEntrySchema>;
