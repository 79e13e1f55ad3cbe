/** highlight.js is loaded on first need (a code block on screen), from our own bundle. */
let loading: Promise<typeof import('highlight.js/lib/common').default> | null = null;

function load() {
  loading ??= import('highlight.js/lib/common').then((m) => {
    m.default.configure({ ignoreUnescapedHTML: true });
    return m.default;
  });
  return loading;
}

/** Colours the code blocks inside an element (only those with a language class, and not too long). */
export async function highlightWithin(root: HTMLElement): Promise<void> {
  const blocks = [...root.querySelectorAll<HTMLElement>('pre code[class*="language-"]:not(.hljs)')].filter((b) => (b.textContent ?? '').length < 50_000);
  if (!blocks.length) return;
  const hljs = await load();
  for (const block of blocks) {
    if (!block.isConnected) continue;
    const language = /language-([\w+#-]+)/.exec(block.className)?.[1];
    if (!language || !hljs.getLanguage(language)) continue;
    // highlightElement escapes the text itself; the result holds only spans with classes.
    hljs.highlightElement(block);
  }
}
