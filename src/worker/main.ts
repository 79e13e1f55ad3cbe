/// <reference lib="webworker" />
// The core worker's entry: it only holds the page's first messages while its body (serve.ts) loads.
// It imports nothing statically, so the bundler leaves no shared code in this file: the chunks the
// body loads lazily (share, the host's keys, …) then import shared code from a chunk of its own,
// never from this script. Otherwise a worker started as `main.js?root=…` (tests, benches) would run
// its body a second time on such a lazy import (another URL, another module), and answer each call
// twice.
declare const self: DedicatedWorkerGlobalScope;

const held: MessageEvent[] = [];
const hold = (event: MessageEvent) => void held.push(event);
self.addEventListener('message', hold);
void import('./serve.ts').then(({ serve }) => {
  self.removeEventListener('message', hold);
  serve(held);
});
export {};
