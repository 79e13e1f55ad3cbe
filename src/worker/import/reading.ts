// How the worker reads a session file's bytes for the store: its format decided once from its
// first bytes (core/formats), a pi file read by the core's line pass as its bytes stream past
// (core/read/digest.ts), another agent's file converted to pi and the conversion read instead.
import { convertToPi, detectFormat, HEAD_BYTES, type Conversion } from '../../core/formats/index.ts';
import { createDigester, type DigestOptions, digestConversion } from '../../core/index.ts';
import { concatBytes } from '../../core/read/record-stream.ts';
import type { SessionReader, SessionReading } from '../../storage/types.ts';

/** Sees each record of a pi file as the line pass parses it (before migration). */
type OnValue = (value: Record<string, unknown>) => void;

/** The reading of a file known to be pi (its header was read); `onRecordAt` sees each record with its place (an envelope index built from them). */
export function piReading(onValue?: OnValue, onRecordAt?: DigestOptions['onRecordAt']): SessionReading {
  return createDigester({ onValue, onRecordAt });
}

/** The reading of another agent's file already converted: its bytes pass to the disk, the conversion is what is read. */
export function convertedReading(conversion: Conversion, onValue?: OnValue): SessionReading {
  return {
    push: () => undefined,
    finish: () => ({ ...digestConversion(conversion, onValue), derived: conversion.bytes }),
  };
}

/** The store's reader of a stored file (`name`, for messages): pi as its bytes stream, or held whole and converted when its first bytes say another agent wrote it. */
export const readAnyFormat: SessionReader = (name) => {
  let pi: SessionReading | null = null;
  let held: Uint8Array[] = [];
  let heldBytes = 0;
  let foreign: Exclude<ReturnType<typeof detectFormat>, 'pi'> | null = null;
  const decide = () => {
    const format = detectFormat(concatBytes(held).subarray(0, HEAD_BYTES));
    if (format !== 'pi') return void (foreign = format);
    pi = piReading();
    for (const c of held) pi.push(c);
    held = [];
  };
  return {
    push(chunk) {
      if (pi) return pi.push(chunk);
      // Copied: the caller may reuse its buffer.
      held.push(chunk.slice());
      heldBytes += chunk.length;
      if (!foreign && heldBytes >= HEAD_BYTES) decide();
    },
    finish() {
      if (!pi && !foreign) decide();
      const reading = pi as SessionReading | null;
      if (reading) return reading.finish();
      const original = concatBytes(held);
      held = [];
      return convertedReading(convertToPi(original, foreign as NonNullable<typeof foreign>, name)).finish();
    },
  };
};
