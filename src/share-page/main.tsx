// The one-file share page's entry. The page's HTML (src/worker/share/page-template.ts)
// carries a meta block, its worker's code, this script, then the session as base85 parts: the
// script runs before the parser reaches the parts, starts the worker and hands it each part as the
// parser finishes it, and shows the app's reader once the last one is in, after the password for an encrypted page.
import { render } from 'preact';
import '../ui/styles.css';
import '../ui/badges-menus.css';
import './page.css';
import type { SharePageMeta } from '../worker/share/page-template.ts';
import { type PageWorker, startPageWorker } from './link.ts';
import { SharePage, type PageState } from './SharePage.tsx';
import { nextTask } from '../worker/next-task.ts';

const app = document.getElementById('app')!;

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

/**
 * Hands each payload part to `send` (its number, its text) once the parser has finished it: when an
 * element follows it, or once the document is parsed. Resolves with the number of parts when the last is sent.
 * Each part's element is removed once read, so the page keeps no second copy of the payload.
 */
function streamParts(send: (index: number, texts: string[]) => void): Promise<number> {
  const parts = document.getElementsByClassName('rho-part');
  let next = 0;
  return new Promise((resolve) => {
    const take = () => {
      const parsed = document.readyState !== 'loading';
      const texts: string[] = [];
      // Live: the first element is always the next part not read yet.
      while (parts.length > 0 && (parsed || parts[0].nextElementSibling)) {
        texts.push(parts[0].textContent ?? '');
        parts[0].remove();
      }
      if (texts.length) send(next, texts);
      next += texts.length;
      if (!parsed) return;
      observer.disconnect();
      resolve(next);
    };
    // The parser adds elements in tasks of its own; the observer sees them after each one.
    const observer = new MutationObserver(take);
    observer.observe(document.body, { childList: true });
    document.addEventListener('DOMContentLoaded', take, { once: true });
    take();
  });
}

/**
 * Posts payload parts to the worker: at once when it runs, else queued until it does, and the queue
 * then one message a task (posting the parts that arrived during the worker's start in one task held the page ~45 ms).
 */
function partSender(link: Promise<{ remote: PageWorker }>) {
  const waiting: { index: number; texts: string[] }[] = [];
  const sent: Promise<number>[] = [];
  let remote: PageWorker | null = null;
  const drained = link.then(async (started) => {
    remote = started.remote;
    for (let batch = waiting.shift(); batch; batch = waiting.shift()) {
      sent.push(remote.addParts(batch));
      if (waiting.length) await nextTask();
    }
  });
  return {
    send(index: number, texts: string[]) {
      if (remote && !waiting.length) sent.push(remote.addParts({ index, texts }));
      else waiting.push({ index, texts });
    },
    /** Every part given to `send` has reached the worker. */
    async done(): Promise<void> {
      await drained;
      await Promise.all(sent);
    },
  };
}

async function start(link: Promise<{ remote: PageWorker }>) {
  const meta = readMeta();
  if (meta.title) document.title = meta.title;
  performance.mark('rho-share:start');
  warmFormatters();
  // Parts travel to the worker in the parser's rhythm (a part or two a task), while the worker starts and the parser reads on.
  const parts = partSender(link);
  const count = await streamParts(parts.send);
  const { remote } = await link;
  performance.mark('rho-share:worker');
  await parts.done();
  performance.mark('rho-share:parts');
  if (count === 0) throw new Error('This page carries no session: it is damaged.');
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
// The worker's code is decoded in the next task (not in the one evaluating this script), then unpacked
// by a stream whose steps take turns with the parser's tasks; the parts are taken from the task after.
const link = nextTask().then(startPageWorker);
// Its failure is start's to report (which awaits it later): not an unhandled rejection meanwhile.
link.catch(() => undefined);
nextTask()
  .then(() => start(link))
  .catch((e: unknown) => {
    render(
      <SharePage
        initial={{ name: 'failed', message: `This page could not open its session: ${e instanceof Error ? e.message : String(e)}` }}
        unlock={() => Promise.reject(e)}
      />,
      app,
    );
  });
