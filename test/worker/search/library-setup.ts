// A library of planted sessions beside generated noise, imported through the worker API over the
// memory disk, for the search index's tests.
import { expect } from 'vitest';
import type { SearchResults } from '../../../src/worker/search/api.ts';
import { noiseSessions, openLibrary, type Plant, plantedSession, plantWords } from './planted.ts';

export const SESSIONS = 6;
export const file = (name: string, content: string) => new File([content], name);
export const ids = Array.from({ length: SESSIONS }, (_, i) => `5ea4c000-0000-7000-8000-00000000000${i}`);

export const open = openLibrary;

export async function library() {
  const words = plantWords(12, SESSIONS * 8 + 10);
  const plants: Plant[] = [];
  const files: File[] = [];
  ids.forEach((id, i) => {
    const s = plantedSession(id, i, words.slice(i * 8, i * 8 + 8));
    plants.push(...s.plants);
    files.push(file(`planted-${i}.jsonl`, s.text));
  });
  for (const n of noiseSessions(4)) files.push(file(n.name, n.text));
  const lib = open();
  const report = await lib.api.importFiles({ files });
  expect(report.items.map((x) => x.outcome)).toEqual(files.map(() => 'added'));
  return { ...lib, plants, spare: words.slice(SESSIONS * 8) };
}

/** Every (session, entry) a query's results point at. */
export const where = (r: SearchResults) => r.sessions.flatMap((s) => s.hits.map((h) => `${s.id} ${h.entryId}`)).sort();
