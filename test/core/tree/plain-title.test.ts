// Titles read as plain words: the markdown a first message starts with is not shown as marks.
import { expect, test } from 'vitest';
import { plainTitle } from '../../../src/core/tree/title.ts';

test.each([
  ['## Research Plan **Question**: why is the user agent wrong?', 'Research Plan Question: why is the user agent wrong?'],
  ['# Fix `parseTide()` in [tides.ts](src/tides.ts)', 'Fix parseTide() in tides.ts'],
  ['> quoted _emphasis_ and __strong__', 'quoted emphasis and strong'],
  ['- a list item', 'a list item'],
  ['snake_case_name stays and 2*3*4 stays', 'snake_case_name stays and 2*3*4 stays'],
  ['Task:', 'Task:'],
  ['window.__pwned=1; window.__pwned=2', 'window.__pwned=1; window.__pwned=2'],
  ['a __strong__ word', 'a strong word'],
])('%s → %s', (input, expected) => {
  expect(plainTitle(input)).toBe(expected);
});
