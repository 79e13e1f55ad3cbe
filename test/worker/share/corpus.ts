// A session with planted secrets and personal data in every place a session holds text: user
// messages, thinking, tool-call arguments, tool output, a compaction summary, the header's cwd and
// a branch. Seeded, so the same corpus every run; the planted values are returned with it.
import { createRng, type Rng } from '../../gen/prng.ts';

/** One planted value and the kinds that may find it. */
export interface Plant {
  name: string;
  value: string;
  kinds: string[];
}

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const B64 = `${ALNUM}+/`;
const pick = (rng: Rng, chars: string, n: number) => Array.from({ length: n }, () => chars[rng.int(0, chars.length - 1)]).join('');
const b64url = (s: string) => btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

/** The planted values of a corpus (home-path plants name the user; the name must vanish too). */
export function plants(seed = 11): Plant[] {
  const rng = createRng(seed);
  const pem = `-----BEGIN RSA PRIVATE KEY-----\nMIIE${pick(rng, B64, 60)}\n${pick(rng, B64, 64)}\n${pick(rng, B64, 64)}\n${pick(rng, B64, 40)}==\n-----END RSA PRIVATE KEY-----`;
  const jwt = `eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.${b64url(JSON.stringify({ sub: `u${rng.hex(8)}`, name: 'Zanetta Quillon', iat: 1716239022 }))}.${pick(rng, `${ALNUM}-_`, 43)}`;
  return [
    { name: 'AWS access key id', value: `AKIA${pick(rng, UPPER, 16)}`, kinds: ['aws'] },
    { name: 'AWS secret key', value: pick(rng, B64, 40), kinds: ['aws', 'high-entropy'] },
    { name: 'GitHub token', value: `ghp_${pick(rng, ALNUM, 36)}`, kinds: ['github'] },
    { name: 'GitHub fine-grained token', value: `github_pat_${pick(rng, `${ALNUM}_`, 82)}`, kinds: ['github'] },
    { name: 'OpenAI key', value: `sk-proj-${pick(rng, ALNUM, 74)}T3BlbkFJ${pick(rng, ALNUM, 74)}`, kinds: ['openai'] },
    { name: 'Anthropic key', value: `sk-ant-api03-${pick(rng, `${ALNUM}-_`, 93)}AA`, kinds: ['anthropic'] },
    { name: 'Slack token', value: `xoxb-${pick(rng, '0123456789', 12)}-${pick(rng, '0123456789', 13)}-${pick(rng, ALNUM, 24)}`, kinds: ['slack'] },
    { name: 'Stripe key', value: `sk_live_${pick(rng, ALNUM, 32)}`, kinds: ['stripe'] },
    { name: 'private key', value: pem, kinds: ['private-key'] },
    { name: 'JWT', value: jwt, kinds: ['jwt'] },
    { name: 'e-mail', value: 'zanetta.quillon@fernwood-labs.io', kinds: ['email'] },
    { name: 'database password', value: `q8Zr${pick(rng, ALNUM, 20)}`, kinds: ['high-entropy'] },
    { name: 'IPv4 address', value: '10.41.7.203', kinds: ['ip-address'] },
    { name: 'home path (Linux)', value: '/home/zanetta', kinds: ['home-path'] },
    { name: 'home path (macOS)', value: '/Users/quillon', kinds: ['home-path'] },
  ];
}

/** How each plant is written into text (the secret in its usual surroundings). */
function sentence(p: Plant): string {
  switch (p.name) {
    case 'AWS secret key':
      return `export AWS_SECRET_ACCESS_KEY=${p.value}`;
    case 'database password':
      return `DB_PASSWORD=${p.value}`;
    case 'home path (Linux)':
      return `see ${p.value}/work/app/src/main.ts`;
    case 'home path (macOS)':
      return `cd ${p.value}/code/site && ls`;
    default:
      return `here it is: ${p.value} (keep it safe)`;
  }
}

/** The corpus: every plant in a user message, in thinking, in tool arguments and in tool output. */
export function corpus(seed = 11): { text: string; plants: Plant[] } {
  const all = plants(seed);
  const lines: unknown[] = [{ type: 'session', version: 3, id: 'corpus-1', timestamp: '2026-04-01T10:00:00.000Z', cwd: '/home/zanetta/work/app' }];
  let parent = null as string | null;
  let n = 0;
  let t = Date.parse('2026-04-01T10:00:01.000Z');
  const add = (body: Record<string, unknown>) => {
    const id = `e${(++n).toString().padStart(3, '0')}`;
    lines.push({ type: body.type ?? 'message', id, parentId: parent, timestamp: new Date((t += 1000)).toISOString(), ...body });
    parent = id;
    return id;
  };
  const usage = {
    input: 10,
    output: 5,
    cacheRead: 0,
    cacheWrite: 0,
    totalTokens: 15,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0.001 },
  };
  const assistant = (content: unknown[], stopReason = 'toolUse') => ({
    type: 'message',
    message: { role: 'assistant', content, api: 'anthropic-messages', provider: 'anthropic', model: 'claude-sonnet-4-5', usage, stopReason, timestamp: t },
  });
  let fork = '';
  for (const [i, p] of all.entries()) {
    const s = sentence(p);
    add({ type: 'message', message: { role: 'user', content: [{ type: 'text', text: `Step ${i}: ${s}` }], timestamp: t } });
    if (i === 3) fork = parent ?? '';
    const call = `call_${i}`;
    add(
      assistant([
        { type: 'thinking', thinking: `The user gave ${p.name}. Thinking about it: ${s}`, thinkingSignature: `sig${'x'.repeat(40)}` },
        { type: 'text', text: 'Running it.' },
        {
          type: 'toolCall',
          id: call,
          name: i % 2 ? 'bash' : 'write',
          arguments: i % 2 ? { command: `echo '${s}' > out.txt` } : { path: 'notes/keys.md', content: `# Keys\n\n${s}\n`, apiKey: p.value },
        },
      ]),
    );
    add({
      type: 'message',
      message: {
        role: 'toolResult',
        toolCallId: call,
        toolName: i % 2 ? 'bash' : 'write',
        content: [{ type: 'text', text: `line 1\n${JSON.stringify({ found: s })}\nline 3` }],
        details: { echoed: s },
        isError: false,
        timestamp: t,
      },
    });
  }
  add({
    type: 'compaction',
    summary: `So far: ${all.map((p) => p.value).join(', ')}`,
    firstKeptEntryId: 'e001',
    tokensBefore: 1234,
    details: { readFiles: ['/home/zanetta/work/app/a.ts'], modifiedFiles: [] },
  });
  add(assistant([{ type: 'text', text: 'Done.' }], 'stop'));
  // A branch from an early entry: the whole-session copy holds it, the branch copy does not.
  parent = fork;
  add({ type: 'message', message: { role: 'user', content: `Another try from /Users/quillon/alt with ${all[2].value}`, timestamp: t } });
  add(assistant([{ type: 'text', text: 'Tried.' }], 'stop'));
  return { text: `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`, plants: all };
}

/** The strings a redacted copy must not contain anywhere: each value, its JSON-escaped form, each line of a private key, and the user names. */
export function needles(all: Plant[]): string[] {
  const out = new Set<string>();
  for (const p of all) {
    out.add(p.value);
    out.add(JSON.stringify(p.value).slice(1, -1));
    if (p.value.includes('\n')) for (const l of p.value.split('\n')) if (l.length > 20 && !l.startsWith('-----')) out.add(l);
  }
  out.add('zanetta');
  out.add('quillon');
  return [...out];
}
