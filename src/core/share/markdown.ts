// A session as Markdown that reads well on GitHub: full (every message, tool calls with their
// arguments and results) or focused (what was said, each tool call as one line), thinking optional,
// images as files beside it or left out with a note. Pure: entries in, text and image files out.
import { parts } from '../tree/readers.ts';
import type { Entry, ParsedSession } from '../schema/types.ts';
import { formatTime, renderHeader } from './md-header.ts';
import { codeSpan, escapeHtml, fence, languageOf, oneLine, quote } from './md-text.ts';

/** How a Markdown copy is made. */
export interface MarkdownOptions {
  mode: 'full' | 'focused';
  thinking: boolean;
  /** 'files': images go beside the text (`images/…`); 'omit': a note stands in for each. */
  images: 'files' | 'omit';
  /** Said in the head: what part of the session this is. */
  scopeNote?: string;
}

/** An image file that goes beside the Markdown (base64 as stored). */
export interface MarkdownImage {
  name: string;
  mimeType: string;
  base64: string;
}

/** A Markdown copy: the text and the image files it links to. */
export interface MarkdownCopy {
  markdown: string;
  images: MarkdownImage[];
}

type Obj = Record<string, unknown>;
const EXT: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/gif': 'gif', 'image/webp': 'webp', 'image/svg+xml': 'svg' };
// The argument that says most about a tool call, for its one-line form.
const MAIN_ARGS = ['command', 'cmd', 'path', 'file_path', 'filePath', 'pattern', 'query', 'url', 'target', 'action', 'description'];

/** Renders the entries of a parsed session (file order; a jump to another branch is marked). */
export function renderMarkdown(session: ParsedSession, options: MarkdownOptions): MarkdownCopy {
  const r = new Renderer(options);
  const blocks = [renderHeader(session, session.entries, options.scopeNote ?? 'the whole session')];
  let previous: string | null = null;
  for (const e of session.entries) {
    if (previous !== null && e.parentId !== undefined && e.parentId !== previous && e.parentId !== null && session.byId.has(e.parentId)) {
      blocks.push(`---\n\n*Another branch, going on from entry ${codeSpan(e.parentId)}:*`);
    }
    const out = r.entry(e);
    if (out) blocks.push(out);
    if (typeof e.id === 'string') previous = e.id;
  }
  return { markdown: `${blocks.join('\n\n')}\n`, images: r.images };
}

class Renderer {
  readonly images: MarkdownImage[] = [];
  private readonly calls = new Map<string, { name: string; args: Obj }>();
  // An assistant turn that goes on after tool results (the same reply) gets no heading of its own.
  private inReply = false;
  constructor(private readonly o: MarkdownOptions) {}

  entry(e: Entry): string | null {
    const full = this.o.mode === 'full';
    switch (e.type) {
      case 'message': {
        const m = e.message as Obj;
        const out = this.message(m, e.timestamp);
        if (m?.role === 'assistant') this.inReply = this.inReply || out !== null;
        else if (m?.role !== 'toolResult') this.inReply = false;
        return out;
      }
      case 'compaction':
        return `---\n\n${this.folded('Compacted: summary of the conversation before this point', String(e.summary ?? ''))}`;
      case 'branch_summary':
        return typeof e.summary === 'string' && e.summary.trim() ? this.folded('Summary of a branch left behind', e.summary) : null;
      case 'model_change': {
        const model = typeof e.model === 'string' ? e.model : [e.provider, e.modelId].filter((x) => typeof x === 'string').join('/');
        return full && model ? `*Model: ${codeSpan(model)}*` : null;
      }
      case 'thinking_level_change':
        return full && typeof e.thinkingLevel === 'string' ? `*Thinking level: ${e.thinkingLevel}*` : null;
      case 'custom_message':
        return e.display === false ? null : `### ${escapeHtml(String(e.customType ?? 'Note'))}\n\n${this.content(e.content)}`;
      default:
        return null;
    }
  }

  private message(m: Obj, timestamp?: string): string | null {
    const time = formatTime(timestamp)?.slice(11) ?? '';
    const at = time ? ` · ${time}` : '';
    switch (m?.role) {
      case 'user':
        return `### User${at}\n\n${this.content(m.content)}`;
      case 'assistant':
        return this.assistant(m, at);
      case 'toolResult':
        return this.o.mode === 'full' ? this.toolResult(m) : null;
      case 'bashExecution':
      case 'pythonExecution': {
        const code = String(m.command ?? m.code ?? '');
        const head = `### User ran ${codeSpan(oneLine(code, 80))}${at}`;
        if (this.o.mode === 'focused') return head;
        return `${head}\n\n${fence(code, m.role === 'bashExecution' ? 'sh' : 'python')}\n\n${this.folded('Output', String(m.output ?? ''), true)}`;
      }
      case 'custom':
      case 'hookMessage':
        return m.display === false ? null : `### ${escapeHtml(String(m.customType ?? 'Note'))}${at}\n\n${this.content(m.content)}`;
      default:
        return null;
    }
  }

  private assistant(m: Obj, at: string): string | null {
    const blocks: string[] = [];
    const lines: string[] = [];
    for (const p of parts(m)) {
      if (p.type === 'thinking' && this.o.thinking && typeof p.thinking === 'string' && p.thinking.trim() && p.redacted !== true) {
        blocks.push(`<details><summary>Thinking</summary>\n\n${quote(p.thinking.trim())}\n\n</details>`);
      } else if (p.type === 'text' && typeof p.text === 'string' && p.text.trim()) blocks.push(p.text.trim());
      else if (p.type === 'toolCall') {
        const name = String(p.name ?? 'tool');
        const args = (p.arguments && typeof p.arguments === 'object' ? p.arguments : {}) as Obj;
        this.calls.set(String(p.id ?? ''), { name, args });
        if (this.o.mode === 'focused') lines.push(`- ${codeSpan(name)} ${this.summary(args)}`.trimEnd());
        else blocks.push(this.toolCall(name, args));
      } else if (p.type === 'image') blocks.push(this.image(p));
    }
    if (lines.length) blocks.push(lines.join('\n'));
    if (m.stopReason === 'error' && typeof m.errorMessage === 'string') blocks.push(`> **Error:** ${oneLine(m.errorMessage, 500)}`);
    else if (m.stopReason === 'aborted') blocks.push('> *Aborted.*');
    if (!blocks.length) return null;
    if (this.inReply) return blocks.join('\n\n');
    const model = typeof m.model === 'string' ? ` (${codeSpan(m.model)})` : '';
    return `### Assistant${model}${at}\n\n${blocks.join('\n\n')}`;
  }

  private summary(args: Obj): string {
    for (const k of MAIN_ARGS) if (typeof args[k] === 'string' && args[k]) return codeSpan(oneLine(args[k] as string));
    const json = JSON.stringify(args);
    return json && json !== '{}' ? codeSpan(oneLine(json)) : '';
  }

  private toolCall(name: string, args: Obj): string {
    const head = `**Tool call:** ${codeSpan(name)}`;
    const path = args.path ?? args.file_path ?? args.filePath;
    if (typeof args.command === 'string') return `${head}\n\n${fence(args.command, 'sh')}`;
    if (typeof path === 'string' && typeof args.content === 'string') return `${head} ${codeSpan(path)}\n\n${fence(args.content, languageOf(path))}`;
    const edits = Array.isArray(args.edits) ? (args.edits as Obj[]) : [args];
    const diffs = edits.filter((x) => x && typeof (x.oldText ?? x.old_string) === 'string' && typeof (x.newText ?? x.new_string) === 'string');
    if (typeof path === 'string' && diffs.length) {
      const body = diffs.map((d) => diff(String(d.oldText ?? d.old_string), String(d.newText ?? d.new_string))).join('\n');
      return `${head} ${codeSpan(path)}\n\n${fence(body, 'diff')}`;
    }
    const json = JSON.stringify(args);
    if (json.length <= 160 && !json.includes('\\n')) return `${head} ${codeSpan(json)}`;
    return `${head}\n\n${fence(JSON.stringify(args, null, 2), 'json')}`;
  }

  private toolResult(m: Obj): string {
    const call = this.calls.get(String(m.toolCallId ?? ''));
    const name = String(m.toolName ?? call?.name ?? 'tool');
    const lang = languageOf(call?.args.path ?? call?.args.file_path ?? call?.args.filePath);
    const texts: string[] = [];
    const media: string[] = [];
    for (const p of parts(m)) {
      if (p.type === 'text' && typeof p.text === 'string') texts.push(p.text);
      else if (p.type === 'image') media.push(this.image(p));
    }
    const text = texts.join('\n');
    const count = text ? text.split('\n').length : 0;
    const label = `${m.isError ? 'Error from' : 'Result of'} <code>${escapeHtml(name)}</code> (${count} line${count === 1 ? '' : 's'})`;
    const body = [text ? fence(text, lang || 'text') : '*(no output)*', ...media].join('\n\n');
    return `<details><summary>${label}</summary>\n\n${body}\n\n</details>`;
  }

  private content(content: unknown): string {
    const out: string[] = [];
    for (const p of parts(content)) {
      if (p.type === 'text' && typeof p.text === 'string') out.push(p.text);
      else if (p.type === 'image') out.push(this.image(p));
    }
    return out.join('\n\n').trim() || '*(empty)*';
  }

  private image(p: Obj): string {
    const data = typeof p.data === 'string' ? p.data : '';
    if (this.o.images === 'omit' || !data) return '*(image left out)*';
    if (data.startsWith('blob:')) return '*(image stored outside the session file, not included)*';
    const mimeType = String(p.mimeType ?? 'image/png');
    const name = `images/image-${this.images.length + 1}.${EXT[mimeType] ?? 'bin'}`;
    this.images.push({ name, mimeType, base64: data });
    return `![image ${this.images.length}](${name})`;
  }

  private folded(summary: string, body: string, code = false): string {
    const inner = code ? (body ? fence(body, 'text') : '*(no output)*') : body.trim() || '*(empty)*';
    return `<details><summary>${escapeHtml(summary)}</summary>\n\n${inner}\n\n</details>`;
  }
}

function diff(before: string, after: string): string {
  const minus = before.split('\n').map((l) => `-${l}`);
  const plus = after.split('\n').map((l) => `+${l}`);
  return [...minus, ...plus].join('\n');
}
