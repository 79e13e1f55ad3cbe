// A pass-through proxy in front of a storage server that can hold the next PUT (an upload) until
// the test lets it go: the test learns of the held upload as an event, so it can kill the tab
// while that upload is in flight. Listens on 127.0.0.1, port 0.
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Gate {
  url: string;
  /** Holds the next PUT; resolves with its path once it arrived (its body is not forwarded). */
  holdNextPut(): Promise<string>;
  /** Uploads that reached the server through the gate. */
  puts: string[];
  /** Downloads (GETs of objects, not listings) that reached the server through the gate. */
  gets: string[];
  /** Those of them that asked for a range (a pack's first bytes), with the Range asked for. */
  ranged: { url: string; range: string }[];
  stop(): Promise<void>;
}

export async function startGate(target: string): Promise<Gate> {
  const to = new URL(target);
  let hold: ((path: string) => void) | null = null;
  const puts: string[] = [];
  const gets: string[] = [];
  const ranged: { url: string; range: string }[] = [];
  const forward = (req: IncomingMessage, res: ServerResponse) => {
    const up = request({ host: to.hostname, port: to.port, method: req.method, path: req.url, headers: { ...req.headers, host: to.host } }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    up.on('error', () => res.socket?.destroy());
    req.pipe(up);
  };
  const server = createServer((req, res) => {
    if (req.method === 'PUT' && hold) {
      const arrived = hold;
      hold = null;
      // Held: nothing is forwarded; the browser's end of it goes away with the tab.
      req.resume();
      arrived(req.url ?? '');
      return;
    }
    if (req.method === 'PUT') res.on('finish', () => puts.push(req.url ?? ''));
    // A listing is a GET of the bucket with a query; an object's GET names a key.
    if (req.method === 'GET' && !(req.url ?? '').includes('?')) gets.push(req.url ?? '');
    if (req.method === 'GET' && req.headers.range) ranged.push({ url: req.url ?? '', range: req.headers.range });
    forward(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    puts,
    gets,
    ranged,
    holdNextPut: () =>
      new Promise<string>((resolve) => {
        hold = resolve;
      }),
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
