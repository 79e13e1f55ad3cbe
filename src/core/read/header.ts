// A cheap look at the top of a file: the title slot and the header, without reading the rest.
import { decodeLine, isBlank, parseLine } from './jsonl.ts';
import { CURRENT_SESSION_VERSION } from './migrate.ts';
import { isHeader, versionOf } from './head.ts';
import { problem } from './problems.ts';
import { applyTitleSlot, isTitleSlot } from './title-slot.ts';
import type { Header, Problem, TitleSlot } from '../schema/types.ts';

/**
 * The header and omp title slot of a file, reading only its first record lines (blank lines
 * skipped). `problem` says why there is no header, or that the version is newer than ours.
 */
export function readHeader(bytes: Uint8Array): { header: Header | null; titleSlot: TitleSlot | null; problem?: Problem } {
  let titleSlot: TitleSlot | null = null;
  let pos = 0;
  let line = 0;
  while (pos < bytes.length) {
    line++;
    const nl = bytes.indexOf(10, pos);
    const end = nl < 0 ? bytes.length : nl;
    const { text } = decodeLine(bytes, pos, end);
    pos = end + 1;
    if (isBlank(text)) continue;
    const problems: Problem[] = [];
    const value = parseLine(text, line, nl >= 0, problems);
    if (value === null) return { header: null, titleSlot, problem: problems[0] };
    if (line === 1 && isTitleSlot(value)) {
      titleSlot = value;
      continue;
    }
    if (!isHeader(value)) {
      return { header: null, titleSlot, problem: problem(line, 'no-header', 'the first record is not a session header (type "session" with a string id)') };
    }
    const header = value;
    if (titleSlot) applyTitleSlot(header, titleSlot);
    const version = versionOf(header);
    if (version > CURRENT_SESSION_VERSION) {
      return {
        header,
        titleSlot,
        problem: problem(line, 'future-version', `version ${version} is newer than ${CURRENT_SESSION_VERSION}; read as version ${CURRENT_SESSION_VERSION}`),
      };
    }
    return { header, titleSlot };
  }
  return { header: null, titleSlot, problem: problem(Math.max(line, 1), 'no-header', 'the file holds no session header') };
}
