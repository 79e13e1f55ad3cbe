import type { AttachmentView, ImageRef } from './types.ts';

/** A JSON object as it came from the file (fields unchecked). */
export type Loose = Record<string, unknown>;

/** Longest text of one part sent to the page; the rest stays in the worker (entryJson has it all). */
export const MAX_PART_CHARS = 200_000;

/** Raster image types the page shows as pictures. SVG is excluded: it can carry script. */
const SHOWABLE = new Set([
  'image/png',
  'image/jpeg',
  'image/jpg',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/bmp',
  'image/x-icon',
  'image/vnd.microsoft.icon',
]);

const BLOB_REF = /^blob:sha256:([0-9a-f]{64})$/;

/** True for a plain (non-array) object. */
export function isObject(value: unknown): value is Loose {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A string field, or the fallback. */
export function str(value: unknown, fallback = ''): string {
  return typeof value === 'string' ? value : fallback;
}

/** A finite number field, or null. */
export function num(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** Cuts a string for transport, saying whether it was cut. */
export function clip(text: string, max = MAX_PART_CHARS): { text: string; truncated: boolean } {
  return text.length > max ? { text: text.slice(0, max), truncated: true } : { text, truncated: false };
}

/** The parts of a content field: a string becomes one text part; anything else none. */
export function contentParts(content: unknown): Loose[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (!Array.isArray(content)) return [];
  return content.filter(isObject);
}

/** Joined text of the text parts of a content field. */
export function contentText(content: unknown): string {
  return contentParts(content)
    .filter((p) => p.type === 'text')
    .map((p) => str(p.text))
    .join('\n');
}

/** A reference to an image part, without its bytes. */
export function imageRef(part: Loose, entryId: string, index: number): ImageRef {
  const data = str(part.data);
  const mimeType = str(part.mimeType, 'application/octet-stream').toLowerCase();
  const blob = BLOB_REF.exec(data);
  return {
    entryId,
    part: index,
    mimeType,
    bytes: blob ? 0 : Math.floor((data.length * 3) / 4),
    blobRef: blob ? blob[1] : undefined,
    showable: SHOWABLE.has(mimeType),
  };
}

/** Image refs of every image part in a content array (index = position in the array). */
export function contentImages(content: unknown, entryId: string): ImageRef[] {
  if (!Array.isArray(content)) return [];
  const images: ImageRef[] = [];
  content.forEach((part, i) => {
    if (isObject(part) && part.type === 'image') images.push(imageRef(part, entryId, i));
  });
  return images;
}

const ENVELOPE = /^<attachment((?:\s+[a-zA-Z]+="[^"]*")*)\s*>\n?([\s\S]*?)\n?<\/attachment>\s*$/;
const ATTRIBUTE = /([a-zA-Z]+)="([^"]*)"/g;

/** Undoes the attribute escaping of the envelope (`&`, `"`, `<`). */
function unescapeAttribute(value: string): string {
  return value
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** Reads one `<attachment name= type= path=>ABOUT\n[TEXT]</attachment>` text part, or null. */
export function parseEnvelope(text: string): AttachmentView | null {
  if (!text.startsWith('<attachment')) return null;
  const match = ENVELOPE.exec(text);
  if (!match) return null;
  const attrs: Record<string, string> = {};
  for (const a of match[1].matchAll(ATTRIBUTE)) attrs[a[1]] = unescapeAttribute(a[2]);
  const body = match[2];
  const cut = body.indexOf('\n');
  const about = cut < 0 ? body : body.slice(0, cut);
  const rest = cut < 0 ? '' : body.slice(cut + 1);
  return {
    name: attrs.name ?? '',
    mimeType: attrs.type ?? '',
    path: attrs.path ?? '',
    about,
    text: rest ? clip(rest).text : undefined,
  };
}

/** A user message's typed text, attachments and loose images, in one pass over its content. */
export function splitUserContent(content: unknown, entryId: string): { text: string; attachments: AttachmentView[]; images: ImageRef[] } {
  const typed: string[] = [];
  const attachments: AttachmentView[] = [];
  const images: ImageRef[] = [];
  const parts = typeof content === 'string' ? [{ type: 'text', text: content }] : Array.isArray(content) ? content : [];
  let last: AttachmentView | null = null;
  parts.forEach((part, i) => {
    if (!isObject(part)) return;
    if (part.type === 'text') {
      const envelope = parseEnvelope(str(part.text));
      if (envelope) attachments.push(envelope);
      else typed.push(str(part.text));
      last = envelope;
      return;
    }
    if (part.type === 'image') {
      const ref = imageRef(part, entryId, i);
      // A picture's image part follows its envelope (docs/session-format.md §0.4.4).
      if (last && !last.image && last.mimeType.startsWith('image/')) last.image = ref;
      else images.push(ref);
      last = null;
    }
  });
  return { text: typed.join('\n'), attachments, images };
}

/** Pretty JSON that never throws (cycles cannot come from JSON.parse, but be safe). */
export function prettyJson(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}
