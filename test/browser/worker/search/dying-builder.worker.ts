/// <reference lib="webworker" />
// The search index's builder (part-answer.ts), ending itself once it has answered three parts, with
// more requests waiting: close() says nothing to the worker that made it (no error event, no message).
import { serveBuilder } from '../../../../src/worker/search/part-answer.ts';

declare const self: DedicatedWorkerGlobalScope;

let parts = 0;
serveBuilder({
  name: self.name,
  navigator: self.navigator,
  addEventListener: (type, fn) => self.addEventListener(type, fn),
  postMessage(answer, transfer) {
    self.postMessage(answer, transfer);
    if ('job' in answer && ++parts === 3) self.close();
  },
});
