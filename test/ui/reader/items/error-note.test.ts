import { describe, expect, it } from 'vitest';
import { errorNote } from '../../../../src/ui/reader/items/error-note.ts';

describe('the line under an assistant turn that did not finish', () => {
  it("reads pi's 'Operation aborted' for a stop whose message only says it was aborted", () => {
    expect(errorNote('aborted', 'Request was aborted')).toBe('Operation aborted');
    expect(errorNote('aborted', undefined)).toBe('Operation aborted');
  });

  it("reads the same for a stop carrying the browser's abort reason", async () => {
    // The text a real AbortController gives here, not a copy of it.
    const controller = new AbortController();
    controller.abort();
    const reason = controller.signal.reason as Error;
    expect(errorNote('aborted', reason.message)).toBe('Operation aborted');
  });

  it("reads the same for Chromium's abort of a body being read (the stop came mid-stream)", () => {
    // Chromium's text for a fetch body aborted while it streams; the composer e2e test meets it for real.
    expect(errorNote('aborted', 'BodyStreamBuffer was aborted')).toBe('Operation aborted');
  });

  it('keeps a stop message that says more', () => {
    expect(errorNote('aborted', 'Stopped: the app went to the background')).toBe('Stopped: the app went to the background');
  });

  it("shows a failure's message, and pi's 'Unknown error' when it has none", () => {
    expect(errorNote('error', '429 rate limited')).toBe('429 rate limited');
    expect(errorNote('error', undefined)).toBe('Unknown error');
  });

  it('shows nothing for a finished turn', () => {
    expect(errorNote('stop', undefined)).toBeUndefined();
    expect(errorNote(undefined, undefined)).toBeUndefined();
  });
});
