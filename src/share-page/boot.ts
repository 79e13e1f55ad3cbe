// The share page's one inline script. The page's own script (the reader, its styles' code, DOMPurify)
// is carried as a gzip+base85 block, as its worker and its session are: a third of its size as
// text. This unpacks it and runs it from a blob: URL, which the page's CSP allows through
// 'strict-dynamic' only because this script, allowed by its hash, adds it; nothing else may run.
import { fromBase85 } from '../core/share/base85.ts';
import { gunzipChunks } from './gunzip.ts';

async function start(): Promise<void> {
  const block = document.getElementById('rho-script');
  if (!block?.textContent) throw new Error('no script block');
  const code = await gunzipChunks(fromBase85(block.textContent.trim()));
  const script = document.createElement('script');
  script.src = URL.createObjectURL(new Blob(code, { type: 'text/javascript' }));
  document.body.append(script);
}

start().catch((e: unknown) => {
  const app = document.getElementById('app');
  if (app) app.textContent = `This page is damaged: its script does not unpack (${e instanceof Error ? e.message : String(e)}).`;
});
