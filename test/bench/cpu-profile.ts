/** A CPU profile (CDP `Profiler.stop`) printed as its busiest functions: the page diagnostics' (loaf-scroll.ts, profile-composer.ts) shared view. */

export interface Profile {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }>;
  samples: number[];
  timeDeltas: number[];
}

/** The busiest functions of a profile, self and inclusive (ms); UNDER=name: also the self time of what ran inside that function. */
export function printProfile(profile: Profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const name = (id: number) => {
    const c = byId.get(id)!.callFrame;
    return `${c.functionName || '(anon)'} ${c.url.split('/').pop()}:${c.lineNumber}`;
  };
  const self = new Map<string, number>();
  const incl = new Map<string, number>();
  profile.samples.forEach((leaf, i) => {
    const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    self.set(name(leaf), (self.get(name(leaf)) ?? 0) + ms);
    const seen = new Set<string>();
    for (let n: number | undefined = leaf; n !== undefined; n = parent.get(n)) seen.add(name(n));
    for (const f of seen) incl.set(f, (incl.get(f) ?? 0) + ms);
  });
  const top = (m: Map<string, number>, k: number) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, k)
      .map(([n, v]) => `${n}=${v.toFixed(0)}`)
      .join(' ; ');
  console.log(`self: ${top(self, 25)}`);
  // UNDER=name: self time of what ran inside the named function only.
  const under = process.env.UNDER;
  if (under) {
    const inside = new Map<string, number>();
    profile.samples.forEach((leaf, i) => {
      const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000;
      for (let n: number | undefined = parent.get(leaf); n !== undefined; n = parent.get(n))
        if (name(n) === under || name(n).startsWith(`${under} `)) {
          inside.set(name(leaf), (inside.get(name(leaf)) ?? 0) + ms);
          break;
        }
    });
    console.log(`self inside ${under}: ${top(inside, 40)}`);
  }
  console.log(`inclusive: ${top(incl, Number(process.env.TOP_FNS ?? 50))}`);
}
