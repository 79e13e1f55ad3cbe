import { clip, contentImages, contentText, isObject, prettyJson, str, type Loose } from './parts.ts';
import type { ToolResultView, ToolView } from './types.ts';

/** The path argument of the common file tools (pi `path`, others `file_path`/`filePath`). */
function pathArg(args: Loose): string | undefined {
  const path = args.path ?? args.file_path ?? args.filePath;
  return typeof path === 'string' ? path : undefined;
}

/** A tool call part turned into a view, with the readable form of the common tools. */
export function toToolView(part: Loose): ToolView {
  const name = str(part.name, '(unnamed tool)');
  const args = isObject(part.arguments) ? part.arguments : {};
  const view: ToolView = { callId: str(part.id), name, args: clip(prettyJson(part.arguments ?? {})).text };
  const lower = name.toLowerCase();
  if (lower === 'bash' || lower === 'shell' || lower === 'exec') {
    const command = args.command ?? args.cmd;
    if (typeof command === 'string') view.command = command;
  } else if (lower === 'read' || lower === 'edit' || lower === 'write' || lower === 'ls' || lower === 'find' || lower === 'grep') {
    view.path = pathArg(args);
    if (lower === 'write' && typeof args.content === 'string') view.content = clip(args.content).text;
    if (lower === 'grep' && typeof args.pattern === 'string') view.command = args.pattern;
  }
  const shown = new Set(['command', 'cmd', 'path', 'file_path', 'filePath', 'content', 'pattern']);
  if ((view.command !== undefined || view.path !== undefined) && Object.keys(args).every((k) => shown.has(k)) && lower !== 'edit') view.argsShown = true;
  return view;
}

/** A toolResult message turned into the output half of a tool view. */
export function toResultView(message: Loose, entryId: string): ToolResultView {
  const { text, truncated } = clip(contentText(message.content));
  const details = isObject(message.details) ? message.details : {};
  const diff = typeof details.diff === 'string' ? clip(details.diff).text : undefined;
  return { entryId, text, truncated, isError: message.isError === true, images: contentImages(message.content, entryId), diff };
}

/** A result with no call on the branch: shown on its own. */
export function orphanToolView(message: Loose, entryId: string): ToolView {
  return { callId: str(message.toolCallId), name: str(message.toolName, '(unknown tool)'), args: '', result: toResultView(message, entryId) };
}
