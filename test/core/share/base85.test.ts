// Base85 of the one-file page (src/core/share/base85.ts): every length round-trips, the text uses only
// characters that are inert inside a <script> element, and bad text is refused.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { BASE85_ALPHABET, fromBase85, toBase85 } from '../../../src/core/share/base85.ts';

describe('base85', () => {
  test('the alphabet: 85 printable ASCII characters, none of " & \' < > \\ ` ^ |', () => {
    expect(BASE85_ALPHABET).toHaveLength(85);
    expect(new Set(BASE85_ALPHABET).size).toBe(85);
    expect(BASE85_ALPHABET).toMatch(/^[\x21-\x7e]+$/);
    expect(BASE85_ALPHABET).not.toMatch(/["&'<>\\`^|]/);
  });

  test('round-trips bytes of every length, at 5 characters per 4 bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        const text = toBase85(bytes);
        expect(text.length).toBe(Math.floor(bytes.length / 4) * 5 + (bytes.length % 4 ? (bytes.length % 4) + 1 : 0));
        expect([...fromBase85(text)]).toEqual([...bytes]);
      }),
    );
    for (const edge of [[], [0], [255], [255, 255, 255], [255, 255, 255, 255], [0, 0, 0, 0, 255, 255, 255]]) {
      expect([...fromBase85(toBase85(new Uint8Array(edge)))]).toEqual(edge);
    }
  });

  test('refuses characters outside the alphabet, a lone last character and groups past 32 bits', () => {
    expect(() => fromBase85('ab<de')).toThrow(/not a base85 character at 2/);
    expect(() => fromBase85('abcde\u00e9bcde')).toThrow(/not a base85 character/);
    expect(() => fromBase85('abcdef')).toThrow(/single character/);
    const top = BASE85_ALPHABET[84];
    expect(() => fromBase85(top.repeat(5))).toThrow(/out of range/);
  });
});
