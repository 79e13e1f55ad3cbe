// The builder worker's side (part.worker.ts): builds each job's part from its batches and answers
// with it, its bytes transferred. Every request that ends a job is answered, with the part or with
// why it could not be made; a request it cannot read is answered `broken` (the library's worker then
// builds every part it waits for in place). It answers nothing before it is watched: in a browser,
// its life is a Web Lock named after it, held until it ends however it ends (closed, crashed,
// killed); it says `life` once it holds it, and the library's worker, asking for the same lock, is
// given it when nothing it waits for can come any more.
import type { PartAnswer, PartRequest } from './part-jobs.ts';
import { unpackDocs } from './part-jobs.ts';
import { createPartBuilder, type PartBuilder } from './part-build.ts';

/** What a builder worker's side needs: its messages in, its answers out. */
export interface PartPort {
  addEventListener(type: 'message' | 'messageerror', fn: (e: MessageEvent<PartRequest>) => void): void;
  postMessage(answer: PartAnswer, transfer: Transferable[]): void;
}

const isRequest = (r: unknown): r is PartRequest =>
  typeof r === 'object' && r !== null && Number.isInteger((r as PartRequest).job) && ('drop' in r || ('docs' in r && 'end' in r));

/**
 * Answers the part jobs that come to `port` once `watched` resolves (requests meanwhile wait, in
 * order); when it resolves with a name, first says `life` with it (what watches it from now on).
 */
export function answerPartJobs(port: PartPort, watched: Promise<string | undefined> = Promise.resolve(undefined)): void {
  const ready = watched.then((life) => {
    if (life !== undefined) port.postMessage({ life }, []);
  });
  const jobs = new Map<number, PartBuilder>();
  const handle = (data: unknown) => {
    if (!isRequest(data)) {
      port.postMessage({ broken: 'a request of an unknown shape' }, []);
      return;
    }
    const { job } = data;
    if ('drop' in data) {
      jobs.delete(job);
      return;
    }
    try {
      let b = jobs.get(job);
      if (!b) jobs.set(job, (b = createPartBuilder()));
      for (const d of unpackDocs(data.docs)) b.add(d);
      if (!data.end) return;
      jobs.delete(job);
      const part = b.finish();
      port.postMessage({ job, part }, [part.facts.buffer, part.texts.buffer] as Transferable[]);
    } catch (err) {
      jobs.delete(job);
      port.postMessage({ job, error: err instanceof Error ? err.message : String(err) }, []);
    }
  };
  port.addEventListener('message', (e) => void ready.then(() => handle(e.data)));
  port.addEventListener('messageerror', () => void ready.then(() => port.postMessage({ broken: 'a request it could not read' }, [])));
}

/** A dedicated worker's scope, as a builder uses it. */
export interface BuilderScope extends PartPort {
  name: string;
  navigator: { locks?: LockManager };
}

/**
 * Serves part jobs in a builder worker: first takes the Web Lock named after the worker (held for
 * its life) and says so (`life`), then answers the jobs (those that came meanwhile in order).
 * Without the lock it never says `life`, and the library's worker builds every part itself.
 */
export function serveBuilder(scope: BuilderScope): void {
  const locks = scope.navigator.locks;
  const watched = new Promise<string | undefined>((held) => {
    if (!locks) return held(undefined);
    locks
      .request(scope.name, () => {
        held(scope.name);
        return new Promise<never>(() => undefined);
      })
      .catch(() => held(undefined));
  });
  answerPartJobs(scope, watched);
}
