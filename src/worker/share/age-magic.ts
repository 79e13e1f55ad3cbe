// Recognising an age file by its first line, without loading the age library.

const MAGIC = 'age-encryption.org/v1\n';

/** The length of the first line of every age file. */
export const AGE_MAGIC_LENGTH = MAGIC.length;

/** Whether bytes begin like an age file. */
export function isAge(head: Uint8Array): boolean {
  if (head.length < MAGIC.length) return false;
  for (let i = 0; i < MAGIC.length; i++) if (head[i] !== MAGIC.charCodeAt(i)) return false;
  return true;
}
