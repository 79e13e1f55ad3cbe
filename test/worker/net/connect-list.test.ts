import { getModels } from '@mariozechner/pi-ai';
import { describe, expect, it } from 'vitest';
import type { SpaceSettings } from '../../../src/sync/index.ts';
import { PROVIDER_KINDS } from '../../../src/worker/host/keys.ts';
import { createConnectList, PROVIDER_ORIGINS } from '../../../src/worker/net/connect-list.ts';

const s3 = (endpoint: string): SpaceSettings =>
  ({ kind: 's3', endpoint, region: 'us-east-1', bucket: 'b', prefix: 'p/', accessKeyId: 'AK', secretAccessKey: 'SK' }) as SpaceSettings;

function sources(providers: Array<{ provider: string; baseUrl?: string }>, space?: SpaceSettings) {
  const writes: string[][] = [];
  const state = { providers, space };
  return {
    writes,
    state,
    list: createConnectList({
      providers: async () => state.providers,
      space: async () => state.space,
      write: async (o) => {
        writes.push([...o].sort());
      },
    }),
  };
}

describe('the origins the app may reach', () => {
  it("names each catalog provider's API origin as pi-ai's models call it", () => {
    for (const kind of PROVIDER_KINDS.filter((k) => k !== 'openai-compatible')) {
      const origins = new Set(getModels(kind as never).map((m: { baseUrl: string }) => new URL(m.baseUrl).origin));
      expect([...origins]).toEqual([PROVIDER_ORIGINS[kind]]);
    }
  });

  it("are the providers' origins (a base URL replaces the provider's own) and the sync space's endpoint, nothing else", async () => {
    const { list, writes } = sources(
      [
        { provider: 'anthropic' },
        { provider: 'openai', baseUrl: 'https://gateway.example.com/v1' },
        { provider: 'openai-compatible', baseUrl: 'http://127.0.0.1:11434/v1' },
      ],
      s3('https://s3.example.net:9000/'),
    );
    await list.refresh();
    expect(writes.at(-1)).toEqual(['http://127.0.0.1:11434', 'https://api.anthropic.com', 'https://gateway.example.com', 'https://s3.example.net:9000']);
  });

  it('let a space being checked be reached before it is saved, and forget it once the settings change', async () => {
    const { list, writes, state } = sources([]);
    await list.refresh();
    expect(writes.at(-1)).toEqual([]);
    await list.reach(s3('http://127.0.0.1:4569'));
    expect(writes.at(-1)).toEqual(['http://127.0.0.1:4569']);
    const n = writes.length;
    // Already in the list: nothing written again.
    await list.reach(s3('http://127.0.0.1:4569/other'));
    expect(writes).toHaveLength(n);
    state.space = { kind: 'webdav', url: 'http://127.0.0.1:8080/dav/', username: 'u', password: 'p' } as SpaceSettings;
    await list.spaceChanged();
    expect(writes.at(-1)).toEqual(['http://127.0.0.1:8080']);
    // A removed provider is gone from the next list.
    state.providers = [{ provider: 'groq' }];
    await list.refresh();
    expect(writes.at(-1)).toEqual(['http://127.0.0.1:8080', 'https://api.groq.com']);
    state.providers = [];
    await list.refresh();
    expect(writes.at(-1)).toEqual(['http://127.0.0.1:8080']);
  });
});
