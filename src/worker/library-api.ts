import type { CallContext } from './protocol.ts';
import type { WorkerEnv } from './env.ts';

/** The library half of the worker API: import, list, search, export, delete, rename, label, fork. */
export function createLibraryApi(_env: WorkerEnv) {
  return {
    /** Answers with what it was sent: proves the worker is alive. */
    async ping(params: { message: string }, _ctx?: CallContext): Promise<{ pong: string; at: string }> {
      return { pong: params.message, at: 'worker' };
    },
  };
}
