// The one-file page's HTML around its payload: a strict CSP of its own (no network at all, the one
// inline script and style by hash, images only data:/blob:, a worker only from blob:), the page's
// compressed script with the small script that runs it, styles and compressed worker (built from
// src/share-page/), and the session as base85 parts (core/share/base85.ts: 1.25× the bytes where
// base64 is 1.33×) of at most PART_BYTES each, so neither the HTML parser nor the page ever handles
// one huge string. The scripts come before the parts: once unpacked (a few ms), the page's script
// starts the worker and hands it each part as the parser finishes it, while the rest of the file is
// still being parsed.
import { toBase64 } from '../../core/write/base64.ts';
import { toBase85 } from '../../core/share/base85.ts';

/**
 * The built share page (see vite.share-page.ts): its inline boot script, its gzip+base85 script
 * (which the boot script unpacks and runs), styles and gzip+base85 worker (with age decryption for
 * encrypted pages).
 */
export interface SharePageAssets {
  boot: string;
  script: string;
  css: string;
  worker: string;
  workerEncrypted: string;
}

/** What the page learns about itself before it opens the payload. */
export interface SharePageMeta {
  title: string;
  /** The payload is an age file (passphrase) around the container (./page-payload.ts). */
  encrypted: boolean;
  /** The branch to open (the file's leaf when absent). */
  leafId?: string;
  /** Bytes of the session before compression. */
  bytes: number;
  /** The payload's format (2: the container of ./page-payload.ts). */
  format: 2;
}

/** Raw payload bytes per <script> part (a multiple of 4, so each part is base85 on its own). */
export const PART_BYTES = 3 * 32 * 1024;

const encoder = new TextEncoder();

/** Base64 of bytes (the CSP's hashes): the platform's when it has one (Chromium 140+, Firefox 133+, Safari 18.2+), else the core's. */
function base64Of(bytes: Uint8Array): string {
  const native = (bytes as { toBase64?: () => string }).toBase64;
  return typeof native === 'function' ? native.call(bytes) : toBase64(bytes);
}

async function sha256(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(text)));
  return base64Of(digest);
}

/** Text for HTML, in ASCII: the page stays all ASCII, which the browser decodes several times faster (see vite.share-page.ts). */
function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/[^\x00-\x7f]/gu, (c) => `&#x${(c.codePointAt(0) as number).toString(16)};`);
}

/** JSON that can sit inside a <script> element (no `<`, so nothing can close it; ASCII only) and is still the same JSON. */
function inertJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * The page's Content-Security-Policy: nothing from anywhere; only its own boot script and style, by
 * hash, and ('strict-dynamic') the script the boot script adds, from the page's own block.
 */
export function sharePageCsp(scriptHash: string, styleHash: string): string {
  return [
    "default-src 'none'",
    `script-src 'sha256-${scriptHash}' 'strict-dynamic'`,
    `style-src 'sha256-${styleHash}'`,
    'img-src data: blob:',
    'worker-src blob:',
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

/** The page as a Blob: the HTML around `payload` (the container of ./page-payload.ts, or an age file of it when meta.encrypted). */
export async function assemblePage(assets: SharePageAssets, payload: Uint8Array, meta: SharePageMeta): Promise<Blob> {
  const csp = sharePageCsp(await sha256(assets.boot), await sha256(assets.css));
  const head =
    '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n' +
    `<meta http-equiv="Content-Security-Policy" content="${csp}">\n` +
    '<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">\n' +
    '<meta name="referrer" content="no-referrer">\n<meta name="color-scheme" content="light dark">\n' +
    `<meta name="generator" content="Rho Sessions">\n<title>${escapeHtml(meta.title)}</title>\n` +
    `<style>${assets.css}</style>\n</head>\n<body>\n` +
    '<div id="app"><noscript>This page shows a coding-agent session; it needs JavaScript.</noscript></div>\n' +
    `<script type="application/json" id="rho-meta">${inertJson(meta)}</script>\n` +
    `<script type="application/x-rho-worker" id="rho-worker">${meta.encrypted ? assets.workerEncrypted : assets.worker}</script>\n` +
    `<script type="application/x-rho-script" id="rho-script">${assets.script}</script>\n` +
    `<script>${assets.boot}</script>\n`;
  const parts: string[] = [head];
  for (let at = 0; at < payload.length; at += PART_BYTES) {
    parts.push(`<script type="application/x-rho-part" class="rho-part">${toBase85(payload.subarray(at, at + PART_BYTES))}</script>\n`);
  }
  parts.push('</body>\n</html>\n');
  return new Blob(parts, { type: 'text/html;charset=utf-8' });
}
