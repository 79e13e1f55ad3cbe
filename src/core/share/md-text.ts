// Small Markdown helpers: fences that no content can close, one-line code spans, HTML escapes,
// and the language a fence gets from a file name.

/** A fenced code block whose fence is longer than any backtick run inside. */
export function fence(body: string, lang = ''): string {
  let longest = 0;
  for (const m of body.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
  const ticks = '`'.repeat(Math.max(3, longest + 1));
  return `${ticks}${lang}\n${body.replace(/\n$/, '')}\n${ticks}`;
}

/** Text on one line, cut to `max` characters. */
export function oneLine(text: string, max = 120): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** An inline code span that holds any text (backticks included). */
export function codeSpan(text: string): string {
  let longest = 0;
  for (const m of text.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
  const ticks = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${ticks}${pad}${text}${pad}${ticks}`;
}

/** Text safe inside HTML (a `<summary>`). */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Every line of a text as a Markdown quote. */
export function quote(text: string): string {
  return text
    .split('\n')
    .map((l) => (l ? `> ${l}` : '>'))
    .join('\n');
}

const LANGS: Record<string, string> = {
  ts: 'ts',
  tsx: 'tsx',
  mts: 'ts',
  cts: 'ts',
  js: 'js',
  mjs: 'js',
  cjs: 'js',
  jsx: 'jsx',
  json: 'json',
  jsonl: 'json',
  md: 'markdown',
  py: 'python',
  rs: 'rust',
  go: 'go',
  rb: 'ruby',
  java: 'java',
  kt: 'kotlin',
  swift: 'swift',
  c: 'c',
  h: 'c',
  cc: 'cpp',
  cpp: 'cpp',
  hpp: 'cpp',
  cs: 'csharp',
  sh: 'sh',
  bash: 'sh',
  zsh: 'sh',
  fish: 'fish',
  yaml: 'yaml',
  yml: 'yaml',
  toml: 'toml',
  html: 'html',
  css: 'css',
  scss: 'scss',
  sql: 'sql',
  xml: 'xml',
  svg: 'xml',
  lua: 'lua',
  php: 'php',
  ex: 'elixir',
  exs: 'elixir',
  nix: 'nix',
  dockerfile: 'dockerfile',
};

/** The fence language of a file name ('' when unknown). */
export function languageOf(path: unknown): string {
  if (typeof path !== 'string') return '';
  const name = path.split(/[\\/]/).pop()?.toLowerCase() ?? '';
  if (name === 'dockerfile') return 'dockerfile';
  if (name === 'makefile') return 'makefile';
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : (LANGS[name.slice(dot + 1)] ?? '');
}
