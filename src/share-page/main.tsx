// The one-file share page's entry. The page's HTML (src/worker/share/page-template.ts)
// carries a meta block, its worker's code and the session as base85 parts; this script starts the
// worker, hands it the parts, and shows the app's reader, after the password for an encrypted page.
import { render } from 'preact';
import '../ui/styles.css';
import '../ui/badges-menus.css';
import './page.css';
import type { SharePageMeta } from '../worker/share/page-template.ts';
import { startPageWorker } from './link.ts';
import { SharePage, type PageState } from './SharePage.tsx';
import { nextTask } from '../worker/next-task.ts';

const app = document.getElementById('app')!;
/** Payload parts (120 KB of base85 each) per message to the worker. */
const PARTS_PER_MESSAGE = 8;

function readMeta(): SharePageMeta {
  const block = document.getElementById('rho-meta');
  return JSON.parse(block?.textContent ?? '{}') as SharePageMeta;
}

/**
 * The first number and date a row formats load the locale's data (tens of ms each): done in their
 * own tasks while the worker opens the session, not in the task that puts the first screen up.
 */
function warmFormatters() {
  setTimeout(() => new Intl.NumberFormat().format(1234.5), 0);
  setTimeout(() => new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(0), 0);
}

async function start() {
  const meta = readMeta();
  if (meta.title) document.title = meta.title;
  performance.mark('rho-share:start');
  warmFormatters();
  const { remote } = await startPageWorker();
  performance.mark('rho-share:worker');
  const parts = [...document.querySelectorAll('script.rho-part')];
  // Small parts keep the HTML parser's tasks short; they travel to the worker about 1 MB a message,
  // so the page never builds one string of the whole payload.
  // One message a task: copying 1 MB of text to the worker is a few ms, twelve of them in a row were one long task.
  const sent: Promise<number>[] = [];
  for (let at = 0; at < parts.length; at += PARTS_PER_MESSAGE) {
    if (at > 0) await nextTask();
    sent.push(remote.addParts({ index: at, texts: parts.slice(at, at + PARTS_PER_MESSAGE).map((el) => el.textContent ?? '') }));
  }
  await Promise.all(sent);
  for (const el of parts) el.remove();
  performance.mark('rho-share:parts');
  const unlock = remote.openPayload;
  let initial: PageState = { name: 'password' };
  if (!meta.encrypted) {
    await remote.openPayload({});
    performance.mark('rho-share:unpacked');
    initial = { name: 'reader' };
  }
  render(<SharePage initial={initial} leafId={meta.leafId} unlock={(p) => unlock(p)} />, app);
}

render(<SharePage initial={{ name: 'opening' }} unlock={() => Promise.reject(new Error('Not ready.'))} />, app);
// In the next task: this one also ran the HTML parser's last chunk and compiled this script.
nextTask()
  .then(start)
  .catch((e: unknown) => {
    render(
      <SharePage
        initial={{ name: 'failed', message: `This page could not open its session: ${e instanceof Error ? e.message : String(e)}` }}
        unlock={() => Promise.reject(e)}
      />,
      app,
    );
  });
