// What secretlint's preset takes from `node:path` and `node:fs` in a browser build: it names files
// with `basename` and reads a file only when given a path (we never give one). No Node built-in runs.

/** The last segment of a path. */
export function basename(path: string): string {
  return path.slice(path.replace(/[\\/]+$/, '').search(/[^\\/]*$/)).replace(/[\\/]+$/, '');
}

/** There are no files to read in a worker; secretlint catches this and goes on. */
export function readFileSync(): never {
  throw new Error('No file system in the browser.');
}

export default { basename, readFileSync };
