// The session generator (test/gen) is written for Node; in a bench page these two Buffer calls are
// all it uses of it. Imported for its effect, before the generator runs.
const utf8 = new TextEncoder();
(globalThis as { Buffer?: unknown }).Buffer ??= {
  byteLength: (s: string) => utf8.encode(s).length,
  from: (bytes: Uint8Array) => ({
    toString: () => {
      let bin = '';
      for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
      return btoa(bin);
    },
  }),
};
