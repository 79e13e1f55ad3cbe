/// <reference lib="webworker" />
/**
 * Android's share target (manifest `share_target`): the shared files arrive as a multipart POST
 * to /share-target. They are kept in a Cache under a fresh key and the page is sent to
 * `/#/import?share=<key>`, where it hands them to the worker (src/ui/sw-bridge.ts takes them).
 * https://developer.chrome.com/docs/capabilities/web-apis/web-share-target#accepting_files
 */

/** The cache holding shared files until the page takes them. Shared with src/ui/sw-bridge.ts. */
export const SHARE_CACHE = 'rho-share';

/** What the page finds at `/__share/<key>/meta`. */
export interface ShareMeta {
  files: Array<{ name: string; type: string }>;
  title: string | null;
  text: string | null;
}

/** Stores one share-target POST and answers with a 303 to the import screen. */
export async function acceptShare(request: Request): Promise<Response> {
  const key = crypto.randomUUID();
  try {
    const form = await request.formData();
    const files = form.getAll('files').filter((v): v is File => typeof v !== 'string');
    const field = (name: string) => {
      const v = form.get(name);
      return typeof v === 'string' && v ? v : null;
    };
    const cache = await caches.open(SHARE_CACHE);
    await Promise.all(files.map((file, i) => cache.put(`/__share/${key}/${i}`, new Response(file))));
    const meta: ShareMeta = { files: files.map((f) => ({ name: f.name, type: f.type })), title: field('title'), text: field('text') };
    await cache.put(`/__share/${key}/meta`, new Response(JSON.stringify(meta), { headers: { 'content-type': 'application/json' } }));
    return Response.redirect(`/#/import?share=${key}`, 303);
  } catch {
    return Response.redirect('/#/import?share=failed', 303);
  }
}
