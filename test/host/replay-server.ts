// A loopback server that speaks the providers' streaming protocols, replaying recordings
// (recordings.ts), with their CORS behaviour, and keeping what it received. Routes:
//   /anthropic/v1/messages                       Anthropic Messages (SSE)
//   /openai/v1/chat/completions                  OpenAI Chat Completions (SSE)
//   /openai/v1/responses                         OpenAI Responses (SSE)
//   /google/v1beta/models/<m>:streamGenerateContent  Gemini (alt=sse)
// Anthropic, like the real API, refuses a browser (an Origin) request without
// `anthropic-dangerous-direct-browser-access: true`. Faults are scripted per request.
import { EventEmitter } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { anthropicFrames, chatFrames, googleFrames, responsesFrames, sse, type Frame, type ReplySpec } from './recordings.ts';

export type Provider = 'anthropic' | 'openai-chat' | 'openai-responses' | 'google';

/** What the next request gets. */
export type Scripted =
  | { kind: 'reply'; reply: ReplySpec }
  | { kind: 'status'; status: number; retryAfter?: number; message?: string }
  /** `after` frames, then the connection is destroyed mid-message. */
  | { kind: 'cut'; reply: ReplySpec; after: number }
  /** `after` frames, then one frame per `step()` call (a slow stream); the client may cancel meanwhile. */
  | { kind: 'slow'; reply: ReplySpec; after: number };

/** One request as received. */
export interface Received {
  provider: Provider;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Record<string, unknown>;
  /** The client went away before the reply ended (a Stop). */
  cancelled: boolean;
  /** Frames sent so far. */
  sent: number;
}

export interface ReplayServer {
  /** Base URL per provider, as a pi-ai model's `baseUrl`. */
  baseUrl(provider: Provider): string;
  origin: string;
  script(...s: Scripted[]): void;
  received: Received[];
  /** Resolves when a request matching `test` has been received and the predicate holds (checked on each change). */
  until(test: (received: Received[]) => boolean): Promise<void>;
  /** Sends the next frame of a slow stream. */
  step(): void;
  /** Drops the connection of the oldest slow stream still open, mid-message (after the client has shown what came). */
  drop(): void;
  close(): Promise<void>;
}

const ANTHROPIC_BROWSER = 'anthropic-dangerous-direct-browser-access';

function providerOf(path: string): Provider | null {
  if (path.startsWith('/anthropic/v1/messages')) return 'anthropic';
  if (path.startsWith('/openai/v1/chat/completions')) return 'openai-chat';
  if (path.startsWith('/openai/v1/responses')) return 'openai-responses';
  if (/^\/google\/v1beta\/models\/[^/]+:streamGenerateContent/.test(path)) return 'google';
  return null;
}

function framesFor(provider: Provider, reply: ReplySpec): Frame[] {
  if (provider === 'anthropic') return anthropicFrames(reply);
  if (provider === 'openai-chat') return chatFrames(reply);
  if (provider === 'openai-responses') return responsesFrames(reply);
  return googleFrames(reply);
}

function cors(req: IncomingMessage, res: ServerResponse) {
  if (!req.headers.origin) return;
  res.setHeader('access-control-allow-origin', req.headers.origin);
  res.setHeader('access-control-expose-headers', 'retry-after, request-id, x-request-id');
}

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
  });

export async function startReplayServer(): Promise<ReplayServer> {
  const queue: Scripted[] = [];
  const received: Received[] = [];
  const changes = new EventEmitter();
  const steppers: Array<{ step(): void; drop(): void; live(): boolean }> = [];
  const changed = () => changes.emit('change');

  const server = createServer(async (req, res) => {
    const path = req.url ?? '/';
    const provider = providerOf(path);
    if (req.method === 'OPTIONS') {
      const asked = String(req.headers['access-control-request-headers'] ?? '').toLowerCase();
      // Anthropic: a browser that does not opt in gets no CORS approval.
      if (
        provider === 'anthropic' &&
        !asked
          .split(',')
          .map((h) => h.trim())
          .includes(ANTHROPIC_BROWSER)
      ) {
        res.writeHead(403).end();
        return;
      }
      res.writeHead(204, {
        'access-control-allow-origin': String(req.headers.origin ?? '*'),
        'access-control-allow-methods': 'POST, OPTIONS',
        'access-control-allow-headers': asked || '*',
        'access-control-max-age': '0',
      });
      res.end();
      return;
    }
    cors(req, res);
    const text = await readBody(req);
    if (!provider || req.method !== 'POST') {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `No route ${req.method} ${path}` } }));
      return;
    }
    if (provider === 'anthropic' && req.headers.origin && req.headers[ANTHROPIC_BROWSER] !== 'true') {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ type: 'error', error: { type: 'authentication_error', message: `CORS requests must set '${ANTHROPIC_BROWSER}' header` } }));
      return;
    }
    const r: Received = { provider, path, headers: { ...req.headers }, body: text ? JSON.parse(text) : {}, cancelled: false, sent: 0 };
    received.push(r);
    const s = queue.shift() ?? { kind: 'status', status: 500, message: 'The replay server has no scripted reply for this request.' };
    if (s.kind === 'status') {
      res.writeHead(s.status, { 'content-type': 'application/json', ...(s.retryAfter !== undefined ? { 'retry-after': String(s.retryAfter) } : {}) });
      res.end(
        JSON.stringify(
          provider === 'anthropic'
            ? { type: 'error', error: { type: s.status === 429 ? 'rate_limit_error' : 'api_error', message: s.message ?? `status ${s.status}` } }
            : { error: { message: s.message ?? `status ${s.status}`, code: s.status } },
        ),
      );
      changed();
      return;
    }
    const frames = framesFor(provider, s.reply);
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.on('close', () => {
      if (!res.writableFinished) {
        r.cancelled = true;
        changed();
      }
    });
    const upTo = s.kind === 'reply' ? frames.length : Math.min(s.after, frames.length);
    for (; r.sent < upTo; r.sent++) res.write(sse(frames[r.sent]));
    changed();
    if (s.kind === 'cut') {
      // Once what was written has left, the connection drops (no end of the chunked body).
      res.write('', () => setImmediate(() => res.socket?.destroy()));
      return;
    }
    if (s.kind === 'slow') {
      const pending = {
        step: () => {
          if (r.cancelled) return;
          if (r.sent < frames.length) res.write(sse(frames[r.sent++]));
          if (r.sent >= frames.length) res.end();
          else steppers.push(pending);
          changed();
        },
        drop: () => res.socket?.destroy(),
        live: () => !r.cancelled && !res.writableFinished,
      };
      steppers.push(pending);
      return;
    }
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    baseUrl: (p) => (p === 'anthropic' ? `${origin}/anthropic` : p === 'google' ? `${origin}/google/v1beta` : `${origin}/openai/v1`),
    script: (...s) => queue.push(...s),
    received,
    until: (test) =>
      new Promise<void>((resolve) => {
        const check = () => {
          if (!test(received)) return;
          changes.off('change', check);
          resolve();
        };
        changes.on('change', check);
        check();
      }),
    step: () => steppers.shift()?.step(),
    drop: () => {
      for (let p = steppers.shift(); p; p = steppers.shift()) if (p.live()) return p.drop();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
