// Files going with a user message: each is copied beside the session (so the path the envelope
// names stays true) and described for the model, as a rho host builds an attachment.
import { toBase64, type AttachmentInput } from '../../core/index.ts';

/** A file as the page hands it over (a picker, the camera, a pasted image). */
export interface AttachmentFile {
  name: string;
  type: string;
  blob: Blob;
}

/** Where attachment copies are written. */
export interface AttachmentDisk {
  writeFile(path: string, bytes: Uint8Array): Promise<void>;
}

/** Pictures a model can be sent (the image types every provider takes). */
const PICTURE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
/** pi cuts a tool's text output at 50 KB; an attached text file gets the same budget. */
export const TEXT_BUDGET = 50 * 1024;
const TEXTUAL = /^(text\/|application\/(json|xml|x-ndjson|javascript|typescript|x-yaml|yaml|toml|x-sh))/;
const TEXT_NAMES = /\.(md|txt|json|jsonl|ya?ml|toml|ts|tsx|js|jsx|mjs|py|rs|go|rb|java|kt|swift|c|h|cpp|cs|sh|css|html|sql|diff|patch|log|csv|ex|exs)$/i;

const sizeText = (n: number) => (n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1024 / 1024).toFixed(1)} MB`);

/** The folder attachment copies go into (one level: the store's disks keep files one folder deep). */
export const ATTACHMENTS_DIR = 'attachments';

// A name safe in a path, unique in this message.
function safeName(name: string, taken: Set<string>): string {
  const base = (name.replace(/[\\/:*?"<>|\u0000-\u001f]/g, '-').trim() || 'file').slice(0, 120);
  let out = base;
  for (let i = 2; taken.has(out); i++) out = `${i}-${base}`;
  taken.add(out);
  return out;
}

/** Copies the files beside session `sessionId` and builds their attachments (`stamp` makes the paths unique per message). */
export async function prepareAttachments(
  files: readonly AttachmentFile[],
  sessionId: string,
  stamp: string,
  disk: AttachmentDisk,
  now: Date,
): Promise<AttachmentInput[]> {
  const taken = new Set<string>();
  const out: AttachmentInput[] = [];
  for (const f of files) {
    const bytes = new Uint8Array(await f.blob.arrayBuffer());
    const mimeType = f.type || (TEXT_NAMES.test(f.name) ? 'text/plain' : 'application/octet-stream');
    const path = `${ATTACHMENTS_DIR}/${encodeURIComponent(sessionId)}_${stamp}_${safeName(f.name, taken)}`;
    await disk.writeFile(path, bytes);
    const when = `attached ${now.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
    if (PICTURE_TYPES.has(mimeType)) {
      out.push({
        kind: 'image',
        name: f.name,
        path,
        mimeType,
        about: `A picture (${mimeType}, ${sizeText(bytes.length)}), ${when}.`,
        image: { mimeType, data: toBase64(bytes) },
      });
    } else if (TEXTUAL.test(mimeType) || TEXT_NAMES.test(f.name)) {
      const all = new TextDecoder().decode(bytes);
      const cut = bytes.length > TEXT_BUDGET;
      const text = cut ? new TextDecoder().decode(bytes.subarray(0, TEXT_BUDGET)).replace(/\uFFFD$/, '') : all;
      const about = `A text file (${sizeText(bytes.length)}), ${when}${cut ? `; the first ${sizeText(TEXT_BUDGET)} follow` : ''}.`;
      out.push({ kind: 'text', name: f.name, path, mimeType, about, text });
    } else if (mimeType === 'application/pdf') {
      out.push({ kind: 'pdf', name: f.name, path, mimeType, about: `A PDF (${sizeText(bytes.length)}), ${when}.` });
    } else {
      out.push({ kind: 'file', name: f.name, path, mimeType, about: `A file (${mimeType}, ${sizeText(bytes.length)}), ${when}.` });
    }
  }
  return out;
}
