import type { CallContext } from './protocol.ts';

/**
 * The worker's API: a plain object of async functions, each taking one params object and the
 * call context. The page sees its type only (`typeof api`), through client.ts.
 */
export function createApi() {
  return {
    /** Answers with what it was sent: proves the worker is alive. */
    async ping(params: { message: string }, _ctx?: CallContext): Promise<{ pong: string; at: string }> {
      return { pong: params.message, at: 'worker' };
    },
  };
}

/** The type the page programs against. */
export type Api = ReturnType<typeof createApi>;
