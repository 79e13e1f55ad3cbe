// What the share dialog asks of the worker's share API (api.ts), and what its work (work.ts) is given.
import type { Choice } from '../../core/share/hits.ts';
import type { MarkdownOptions } from '../../core/share/markdown.ts';
import type { StripOptions } from '../../core/share/strip.ts';
import type { Scope } from './lines.ts';

/** The formats a shared copy can take. */
export type ShareFormat = 'jsonl' | 'markdown' | 'html';

/** Everything the share dialog decides. */
export interface ShareRequest {
  id: string;
  format: ShareFormat;
  scope: Scope;
  leafId?: string;
  choice?: Choice;
  strip?: StripOptions;
  markdown?: Omit<MarkdownOptions, 'scopeNote'>;
  /** Encrypts the copy: an `.age` file, or for HTML (unless `ageFile`) a page that asks for it. */
  passphrase?: string;
  ageFile?: boolean;
  /** log2 of scrypt's N for the password; age's default (18) unless given (tests of other things pass a low one). */
  workFactor?: number;
}
