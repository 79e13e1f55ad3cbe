/**
 * Resolves in a new task, after the events already queued (a message such as an abort) have run: a
 * message to itself, since timers are clamped to 4 ms when nested. Used by the worker's cancellable
 * work and by the share page's start, which splits itself into short tasks.
 */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}
