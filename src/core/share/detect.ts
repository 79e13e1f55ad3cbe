// What looks private besides the secrets secretlint knows: home-directory paths and the user names
// in them, e-mail addresses, IP addresses, JWTs and PEM private-key blocks (secretlint's
// recommended preset has no JWT rule, and its private-key rule skips short or cut-off keys), and
// long high-entropy strings next to `key`, `token`, `secret`, `password`. Pure: regexes over text.

/** A span of a string that looks private, with its kind (the redaction says `[redacted: kind]`). */
export interface Found {
  kind: string;
  start: number;
  end: number;
}

/** The kinds found here (secretlint's are named by rule). */
export const PERSONAL_KINDS = ['home-path', 'user-name', 'email', 'ip-address', 'jwt', 'private-key', 'high-entropy'] as const;

// `/home/alice`, `/Users/alice`, `C:\Users\alice` (also with doubled or forward slashes).
const HOME = /(?:\/home\/|\/Users\/|\b[A-Za-z]:(?:\\{1,2}|\/)Users(?:\\{1,2}|\/))([A-Za-z0-9._-]+)/g;
// pi names a project folder after its cwd with dashes: `--home-alice-…--`, `--Users-alice-…--`.
const ENCODED_HOME = /--(?:home|Users)-([A-Za-z0-9._]+?)(?=-)/g;
const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.([A-Za-z]{2,24})\b/g;
// File names look like addresses (`icon@2x.png`): these endings are files, not domains.
const FILE_ENDINGS = new Set(
  'png jpg jpeg gif svg webp ico js mjs cjs ts tsx jsx json css scss md txt lock yaml yml html htm toml sh py rs go rb java kt swift c h cpp hpp map wasm zip gz tar log xml csv pdf'.split(
    ' ',
  ),
);
const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const IPV4 = new RegExp(`(?<![\\w.])(?:${OCTET}\\.){3}${OCTET}(?![\\w]|\\.\\d)`, 'g');
// IPv6: eight groups, or groups around one `::` (`fe80::1ff:fe23:4567:890a`).
const IPV6 = /(?<![\w:])(?:(?:[0-9a-fA-F]{1,4}:){7}[0-9a-fA-F]{1,4}|(?:[0-9a-fA-F]{1,4}:){1,6}(?::[0-9a-fA-F]{1,4}){1,6})(?![\w:])/g;
const JWT = /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g;
// A PEM private key, whole or cut off (tool output may end inside one).
const PEM = /-----BEGIN[A-Z ]*PRIVATE KEY(?: BLOCK)?-----(?:[\s\S]*?-----END[A-Z ]*PRIVATE KEY(?: BLOCK)?-----|[A-Za-z0-9+/=\s\\]*)/g;
const KEYWORD = /(?:key|token|secret|passw(?:or)?d|pwd|credential|auth)[\w-]*["']?\s*(?::=|=>|[:=]|\s)\s*["']?([A-Za-z0-9+/_.~=-]{16,})/gi;
const KEYWORD_NAME = /(?:key|token|secret|passw(?:or)?d|pwd|credential)/i;
const TOKEN_ONLY = /^[A-Za-z0-9+/_.~=-]{16,}$/;
// Names too common to search for as words (the home path itself is still flagged).
const COMMON_NAMES = new Set(['user', 'users', 'admin', 'root', 'home', 'shared', 'runner', 'ubuntu', 'guest', 'dev', 'test', 'public', 'default', 'node']);

/** The user names in a text's home-directory paths (and in pi's dash-encoded project folders). */
export function userNamesIn(text: string, into: Set<string> = new Set()): Set<string> {
  if (!text.includes('home') && !text.includes('Users')) return into;
  for (const m of text.matchAll(HOME)) into.add(m[1]);
  for (const m of text.matchAll(ENCODED_HOME)) into.add(m[1]);
  return into;
}

/** A matcher of the user names as words (null when there are none worth searching). */
export function userNameMatcher(names: Iterable<string>): RegExp | null {
  const words = [...names].filter((n) => n.length >= 3 && !COMMON_NAMES.has(n.toLowerCase()));
  if (!words.length) return null;
  words.sort((a, b) => b.length - a.length);
  const escaped = words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`(?<![A-Za-z0-9])(?:${escaped.join('|')})(?![A-Za-z0-9])`, 'g');
}

/** Shannon entropy of a string, in bits per character. */
export function entropy(s: string): number {
  const counts = new Map<string, number>();
  for (const c of s) counts.set(c, (counts.get(c) ?? 0) + 1);
  let h = 0;
  for (const n of counts.values()) {
    const p = n / s.length;
    h -= p * Math.log2(p);
  }
  return h;
}

/** Whether a token looks random enough to be a credential: letters and digits mixed, high entropy. */
export function looksRandom(token: string): boolean {
  if (token.length < 16 || !/\d/.test(token) || !/[A-Za-z]/.test(token)) return false;
  return entropy(token) >= (token.length >= 32 ? 3.5 : 3.2);
}

function collect(text: string, re: RegExp, kind: string, out: Found[], accept?: (m: RegExpMatchArray) => boolean) {
  for (const m of text.matchAll(re)) {
    if (accept && !accept(m)) continue;
    out.push({ kind, start: m.index as number, end: (m.index as number) + m[0].length });
  }
}

/**
 * What looks private in one string. `names` matches known user names as words; `key` is the
 * string's own property name (a value under `apiKey` or `password` is judged on its own).
 */
export function findPersonal(text: string, names: RegExp | null, key?: string): Found[] {
  const out: Found[] = [];
  collect(text, HOME, 'home-path', out);
  if (names) collect(text, names, 'user-name', out);
  if (text.includes('@')) collect(text, EMAIL, 'email', out, (m) => !FILE_ENDINGS.has(m[1].toLowerCase()));
  collect(text, IPV4, 'ip-address', out, (m) => !/^(?:0\.0\.0\.0|127\.|255\.)/.test(m[0]));
  if (text.includes(':')) collect(text, IPV6, 'ip-address', out, (m) => m[0].split(':').length >= 4 && /[a-fA-F]|::/.test(m[0]) && !/^:*$/.test(m[0]));
  if (text.includes('eyJ')) collect(text, JWT, 'jwt', out);
  if (text.includes('PRIVATE KEY')) collect(text, PEM, 'private-key', out);
  for (const m of text.matchAll(KEYWORD)) {
    const token = m[1];
    if (!looksRandom(token)) continue;
    const start = (m.index as number) + m[0].length - token.length;
    out.push({ kind: 'high-entropy', start, end: start + token.length });
  }
  if (key && KEYWORD_NAME.test(key) && TOKEN_ONLY.test(text) && looksRandom(text)) out.push({ kind: 'high-entropy', start: 0, end: text.length });
  return dropInside(out);
}

/** Drops user names inside a home path and random-looking strings inside another hit (that hit covers them). */
function dropInside(found: Found[]): Found[] {
  if (found.length < 2) return found;
  const inside = (f: Found, kinds: (k: string) => boolean) => found.some((h) => h !== f && kinds(h.kind) && h.start <= f.start && f.end <= h.end);
  return found.filter(
    (f) => !(f.kind === 'user-name' && inside(f, (k) => k === 'home-path')) && !(f.kind === 'high-entropy' && inside(f, (k) => k !== 'high-entropy')),
  );
}
