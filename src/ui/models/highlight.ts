/**
 * A text cut into pieces around each case-insensitive occurrence of `query`: [piece, isMatch].
 * The page renders matches as <mark> and the rest as text nodes (never HTML from a session).
 */
export function splitMatches(text: string, query: string): Array<[string, boolean]> {
  const needle = query.trim().toLowerCase();
  if (!needle) return [[text, false]];
  const lower = text.toLowerCase();
  // Lower-casing can change a text's length (e.g. "İ"): then mark nothing rather than the wrong letters.
  if (lower.length !== text.length) return [[text, false]];
  const out: Array<[string, boolean]> = [];
  let from = 0;
  for (let at = lower.indexOf(needle); at >= 0; at = lower.indexOf(needle, at + needle.length)) {
    if (at > from) out.push([text.slice(from, at), false]);
    out.push([text.slice(at, at + needle.length), true]);
    from = at + needle.length;
  }
  if (from < text.length) out.push([text.slice(from), false]);
  return out;
}
