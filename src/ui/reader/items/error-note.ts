/**
 * The line shown under an assistant turn that did not finish, by pi's rule (its interactive
 * assistant message): a stopped turn reads "Operation aborted" unless its `errorMessage` says more
 * than that the request was aborted; a failed turn shows its `errorMessage`.
 *
 * pi compares with pi-ai's own text, "Request was aborted". A reply stopped in a browser carries the
 * platform's abort reason instead (the fetch rejects with the signal's DOMException), so those
 * texts count as saying nothing more too.
 */
const ABORT_TEXTS = new Set([
  'Request was aborted',
  'Request was aborted.',
  'signal is aborted without reason', // Chromium, before the answer's body
  'BodyStreamBuffer was aborted', // Chromium, while reading the answer's body
  'The operation was aborted.', // Firefox, Safari
  'This operation was aborted', // Node's fetch
  'The user aborted a request.',
]);

export function errorNote(stopReason: string | null | undefined, errorMessage: string | null | undefined): string | undefined {
  if (stopReason === 'aborted') return errorMessage && !ABORT_TEXTS.has(errorMessage.trim()) ? errorMessage : 'Operation aborted';
  return errorMessage || (stopReason === 'error' ? 'Unknown error' : undefined);
}
