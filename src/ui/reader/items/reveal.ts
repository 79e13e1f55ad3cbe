import { createContext } from 'preact';

/**
 * Inside the row of the current find hit: the query (trimmed, lower case), so what holds the
 * match (closed thinking, "N more lines" of an output, closed arguments) opens. '' elsewhere.
 */
export const RevealContext = createContext('');

/** Whether a text holds the query a RevealContext carries. */
export function holds(text: string | undefined, needle: string): boolean {
  return !!needle && !!text && text.toLowerCase().includes(needle);
}
