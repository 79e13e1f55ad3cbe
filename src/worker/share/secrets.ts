// Secrets found with secretlint's recommended preset (a maintained rule set of ~30 providers'
// key formats). Chosen over gitleaks' rules because it is plain JavaScript with JS RegExps and runs
// in a worker as it is: its Node imports (`node:path`, and `node:fs` for .p12 files) are reached
// only when a file path is given, we give none, and vite's browser build makes them empty modules
// (test/browser/worker/share/share.test.ts runs it in Chromium's worker). gitleaks' TOML holds Go RE2 patterns (`(?i)` prefixes,
// its own keyword prefilter and entropy rules) that would need a translator we would maintain.
import { lintSource } from '@secretlint/core';
import { creator as recommended } from '@secretlint/secretlint-rule-preset-recommend';
import type { RuleFound } from '../../core/share/hits.ts';

const PREFIX = '@secretlint/secretlint-rule-';
const config = {
  rules: [
    {
      id: recommended.meta.id,
      rule: recommended,
      // AWS access key ids (AKIA…) are off by default in the preset; a shared session should not carry them.
      rules: [{ id: `${PREFIX}aws`, options: { enableIDScanRule: true } }],
    },
  ],
};

// Strings are scanned many to one call (a call costs more than a short string); this separator
// keeps a pattern from running from one string into the next (no rule's character class takes NUL).
const SEPARATOR = '\n\u0000\u0000\n';
const BATCH = 256 * 1024;

/** The kind a secretlint rule's hits get (`@secretlint/secretlint-rule-github` → `github`). */
export function secretKind(ruleId: string): string {
  const short = ruleId.startsWith(PREFIX) ? ruleId.slice(PREFIX.length) : ruleId;
  return short === 'privatekey' ? 'private-key' : short;
}

/** Secrets in each text, as spans of that text (same order as `texts`). */
export async function findSecrets(texts: readonly string[]): Promise<RuleFound[][]> {
  const out: RuleFound[][] = texts.map(() => []);
  for (let from = 0; from < texts.length; ) {
    let to = from;
    let size = 0;
    while (to < texts.length && (to === from || size + texts[to].length <= BATCH)) size += texts[to++].length + SEPARATOR.length;
    await scanBatch(texts, from, to, out);
    from = to;
  }
  return out;
}

async function scanBatch(texts: readonly string[], from: number, to: number, out: RuleFound[][]): Promise<void> {
  const starts: number[] = [];
  let content = '';
  for (let i = from; i < to; i++) {
    starts.push(content.length);
    content += texts[i] + (i + 1 < to ? SEPARATOR : '');
  }
  const result = await lintSource({ source: { content, filePath: '', ext: '.txt', contentType: 'text' }, options: { config } });
  for (const m of result.messages) {
    const [s, e] = m.range;
    let k = upperBound(starts, s) - 1;
    if (k < 0) k = 0;
    const text = texts[from + k];
    const base = starts[k];
    let start = s - base;
    let end = Math.min(e - base, text.length);
    // Some rules report a range that starts at the match and has the secret's length (the AWS
    // secret key rule does): widen the span to cover the secret the rule names in its data.
    for (const v of Object.values((m.data ?? {}) as Record<string, unknown>)) {
      if (typeof v !== 'string' || v.length < 8) continue;
      const at = text.indexOf(v, Math.max(0, start - v.length));
      if (at >= 0 && at <= end + 300) {
        start = Math.min(start, at);
        end = Math.max(end, at + v.length);
      }
    }
    if (start >= text.length || end <= start) continue;
    out[from + k].push({ kind: secretKind(m.ruleId), rule: m.ruleId, start, end });
  }
}

function upperBound(sorted: readonly number[], x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
