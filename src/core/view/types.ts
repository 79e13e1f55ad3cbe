/**
 * View models of the reader: plain data the worker builds from a parsed session and the page
 * renders. Nothing here holds image bytes or whole files; images are references the page asks
 * the worker for (imageBlob), so a window of items stays small whatever the session's size.
 */

/** Where an image lives: the entry and the index of its part (content array, or `images` for bash). */
export interface ImageRef {
  entryId: string;
  part: number;
  mimeType: string;
  /** Approximate decoded size in bytes (0 for a blob reference). */
  bytes: number;
  /** omp blob reference (sha256 hex) when the image was stored outside the file. */
  blobRef?: string;
  /** True when the page may show it as a picture: a raster image/* type (never SVG). */
  showable: boolean;
}

/** A picture of the transcript: where it is shown (`index`, the item's position under the filter) and what to fetch. */
export interface BranchImage {
  index: number;
  image: ImageRef;
}

/** An attachment of a user message, from Rho's `<attachment …>` envelope. */
export interface AttachmentView {
  name: string;
  mimeType: string;
  path: string;
  about: string;
  /** The file's text, when the envelope carried it. */
  text?: string;
  /** The picture that followed the envelope. */
  image?: ImageRef;
}

/** A tool call paired with its result. */
export interface ToolView {
  callId: string;
  name: string;
  /** Pretty JSON of the arguments. */
  args: string;
  /** The common tools' readable form: bash command, read/write/edit path, write content, edit diff. */
  command?: string;
  path?: string;
  content?: string;
  diff?: string;
  /** Every argument is already shown by the readable form (the raw arguments can stay hidden). */
  argsShown?: boolean;
  /** Absent when the call never got a result on this branch. */
  result?: ToolResultView;
}

/** The output of a tool call. */
export interface ToolResultView {
  entryId: string;
  text: string;
  isError: boolean;
  images: ImageRef[];
  /** The text was cut for transport; the full text is in entryJson. */
  truncated: boolean;
  diff?: string;
}

/** One block of an assistant turn, in the order it was streamed. */
export type AssistantBlock =
  | { kind: 'text'; text: string }
  /** `signed`: the block carries a provider signature (with empty text: encrypted reasoning only). */
  | { kind: 'thinking'; text: string; redacted: boolean; signed?: boolean }
  | { kind: 'image'; image: ImageRef }
  | { kind: 'tool'; tool: ToolView }
  | { kind: 'other'; type: string; json: string };

/** Per-turn usage (tokens and USD cost). */
export interface UsageView {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  /** The core's `usageTotal`: `totalTokens`, or the four buckets when it is missing or 0. */
  totalTokens: number;
  cost: number;
}

/** Fields every render item carries. */
export interface ItemBase {
  /** Position in the (filtered) list. */
  index: number;
  /** The entry the item shows (the tool call's assistant entry for paired tools). */
  entryId: string;
  /** 1-based line in the file. */
  line: number;
  timestamp?: string;
  /** The latest label on this entry, if any. */
  label?: string;
  /** Other branches leave from here: their leaf ids (this branch's own child excluded). */
  forks?: ForkView[];
  /** Ids of further entries folded into this item (paired tool results), for deep links. */
  alsoIds?: string[];
}

/** Another branch starting at an entry. */
export interface ForkView {
  leafId: string;
  preview: string;
  count: number;
}

/** One row of the transcript. */
export type RenderItem = ItemBase &
  (
    | { kind: 'user'; text: string; attachments: AttachmentView[]; images: ImageRef[]; steering: boolean; synthetic: boolean; from?: string; ask: boolean }
    | {
        kind: 'assistant';
        blocks: AssistantBlock[];
        model: string | null;
        provider: string | null;
        stopReason: string | null;
        errorMessage: string | null;
        usage: UsageView | null;
      }
    | { kind: 'toolResult'; tool: ToolView }
    | {
        kind: 'bash';
        command: string;
        output: string;
        exitCode: number | null;
        cancelled: boolean;
        truncated: boolean;
        excluded: boolean;
        language: 'bash' | 'python';
        images: ImageRef[];
      }
    | { kind: 'notice'; notice: 'notice' | 'error' | 'aside'; customType: string; text: string; images: ImageRef[] }
    | { kind: 'custom'; customType: string; text: string; images: ImageRef[]; display: boolean; inContext: boolean }
    | { kind: 'divider'; type: string; text: string }
    | {
        kind: 'compaction';
        summary: string;
        tokensBefore: number | null;
        tokensAfter: number | null;
        firstKeptEntryId: string | null;
        firstKeptIndex: number | null;
        method: string | null;
      }
    | { kind: 'branchSummary'; summary: string; fromId: string }
    /** `targetLine`/`targetPreview`: the labelled entry's line and first words (null/'' when it is not in the file). */
    | { kind: 'labelChange'; targetId: string; text: string; targetLine?: number | null; targetPreview?: string }
    | {
        kind: 'state';
        type: string;
        text: string;
        /** One line that says what the state holds (the row's summary), when the text's first line would not. */
        summary?: string;
      }
    | { kind: 'unknown'; type: string }
    /** A tool result shown inside the turn that made the call (renders nothing itself). */
    | { kind: 'folded'; ownerIndex: number }
  );

/** The kinds of render items. */
export type ItemKind = RenderItem['kind'];

/** Transcript filters. */
export type ItemFilter = 'all' | 'no-tools' | 'user' | 'labelled';

/** One run of the compressed tree: a chain of entries between forks. */
export interface TreeSegment {
  /** First entry of the run. */
  firstId: string;
  /** Last entry of the run (a fork point or a leaf). */
  lastId: string;
  depth: number;
  /** Entries in the run. */
  count: number;
  /** First user or assistant text in the run. */
  preview: string;
  /** Set when the run ends at a leaf. */
  leafId?: string;
  /** On the active path. */
  active: boolean;
  timestamp?: string;
}

/** What the page needs to open a session: the outline, never the whole file. */
export interface SessionView {
  id: string;
  title: string;
  cwd: string;
  created: string | null;
  version: number;
  /** Leaf of the branch shown. */
  leafId: string | null;
  /** The file's own leaf (last entry with an id). */
  defaultLeafId: string | null;
  /** Items on the branch with the given filter. */
  count: number;
  filter: ItemFilter;
  /** Entries in the file / on the branch. */
  entryCount: number;
  branchEntryCount: number;
  leafCount: number;
  /** Item indexes for keyboard navigation (in the filtered list); null until the branch was scanned (sessionMarks). */
  marks: Marks | null;
  /** Index of the requested entry (deep link), or null. */
  entryIndex: number | null;
  tree: TreeSegment[];
  /** The first items to show (around the deep-linked entry, or the end), saving a round trip; pages of VIEW_PAGE items. */
  items: RenderItem[];
  /** Position of items[0]. */
  itemsStart: number;
  problems: Array<{ line: number; code: string; message: string; severity: string }>;
  bytes: number;
}

/** Items travel in pages of this many (the page asks for whole pages). */
export const VIEW_PAGE = 40;

/** Positions of user messages, tool calls and errors in a filtered list. */
export interface Marks {
  user: number[];
  tool: number[];
  error: number[];
}

/** One message of the model context, as the page shows it. */
export interface ContextMessageView {
  role: string;
  parts: ContextPartView[];
  /** The compaction summary that opens the context. */
  summary?: boolean;
}

/** One part of a context message. */
export interface ContextPartView {
  kind: 'text' | 'reasoning' | 'tool-call' | 'tool-result' | 'image' | 'file' | 'other';
  text: string;
  toolName?: string;
  isError?: boolean;
  /** A tool result the core made up for a call that never got one. */
  synthetic?: boolean;
  truncated?: boolean;
}

/** "What the model sees" for one branch. */
export interface ContextView {
  leafId: string | null;
  messages: ContextMessageView[];
  /** Branch entries that send nothing, grouped by why. */
  dropped: Array<{
    entryId: string;
    index: number | null;
    reason: 'summarized' | 'before-reset' | 'empty-turn' | 'retried' | 'not-sent' | 'excluded';
    what: string;
  }>;
  compaction: { entryId: string; tokensBefore: number | null; tokensAfter: number | null; firstKeptEntryId: string | null } | null;
  model: string | null;
}

/** Totals over a set of assistant turns. */
export interface TotalsView {
  turns: number;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  tokens: number;
  cost: number;
  toolCalls: number;
  userMessages: number;
  errors: number;
}

/** Stats of one session: the chosen branch and the whole file, labelled as such. */
export interface StatsView {
  branch: TotalsView;
  file: TotalsView;
  perModel: Array<{ model: string; branch: TotalsView; file: TotalsView }>;
  /** Context size (prompt tokens) of each assistant turn on the branch, with compaction points. */
  series: Array<{ turn: number; tokens: number; entryId: string; compaction?: boolean }>;
}
