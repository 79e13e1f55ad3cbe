import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardFetch } from '../../../src/worker/net/fetch-guard.ts';

// Two real loopback servers: "home" stands for the app's own origin, "other" for a provider.
const servers: Server[] = [];
let home = '';
let other = '';
let hits = 0;
const listen = () =>
  new Promise<string>((done) => {
    const s = createServer((_req, res) => {
      hits++;
      res.end('ok');
    }).listen(0, '127.0.0.1', () => done(`http://127.0.0.1:${(s.address() as AddressInfo).port}`));
    servers.push(s);
  });

beforeAll(async () => {
  home = await listen();
  other = await listen();
});
afterAll(() => {
  for (const s of servers) s.close();
});

describe("the core worker's own check of the origins it may reach", () => {
  it('refuses another origin until the list names it, and lets the own origin and data: URLs through', async () => {
    let allowed: ReadonlySet<string> = new Set();
    const scope = { fetch: globalThis.fetch, location: { origin: home } };
    guardFetch(scope, () => allowed);

    const before = hits;
    await expect(scope.fetch(`${other}/v1/messages`)).rejects.toThrow(`${other} is not among the model providers or the sync space`);
    await expect(scope.fetch(new Request(`${other}/v1/messages`))).rejects.toThrow(TypeError);
    expect(hits).toBe(before); // the server saw nothing

    expect(await (await scope.fetch(`${home}/x`)).text()).toBe('ok');
    expect(await (await scope.fetch('data:text/plain,hi')).text()).toBe('hi');

    allowed = new Set([other]);
    expect(await (await scope.fetch(new URL(`${other}/v1/messages`))).text()).toBe('ok');
    expect(hits).toBe(before + 2);
  });
});
