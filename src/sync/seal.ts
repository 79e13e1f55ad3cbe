// Sealing a pack (age-encrypting its plaintext to the space's recipient) in this thread, or in a
// pool of workers so that encryption (ChaCha20-Poly1305 in JavaScript, the costly part of a first
// sync) runs beside the thread that reads, hashes and uploads. Either way the object is the same
// ordinary age file: `age -d` opens it.
import { Encrypter } from 'age-encryption';

/** Encrypts `plaintext` to the age recipient `age1…`. */
export type SealFn = (recipient: string, plaintext: Uint8Array) => Promise<Uint8Array>;

/** A stream of one chunk (what age reads from). */
export function streamOf(bytes: Uint8Array): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(c) {
      c.enqueue(bytes);
      c.close();
    },
  });
}

/**
 * What age writes, gathered into one buffer of the size it gives (age's own gathering of a
 * Uint8Array goes through `Response.arrayBuffer()`, which in Node copies every chunk twice more: a
 * third of the time a pack takes to seal). Throws when the stream ends short of it or runs past it.
 */
export async function gather(stream: ReadableStream<Uint8Array>, size: number): Promise<Uint8Array> {
  const out = new Uint8Array(size);
  let at = 0;
  const reader = stream.getReader();
  for (let r = await reader.read(); !r.done; r = await reader.read()) {
    if (at + r.value.length > size) throw new Error(`age gave more than the ${size} bytes its sizes make`);
    out.set(r.value, at);
    at += r.value.length;
  }
  if (at !== size) throw new Error(`age gave ${at} bytes, not the ${size} its sizes make`);
  return out;
}

export const sealInThread: SealFn = async (recipient, plaintext) => {
  const e = new Encrypter();
  e.addRecipient(recipient);
  const sealed = await e.encrypt(streamOf(plaintext));
  return gather(sealed, sealed.size(plaintext.length));
};

export interface SealRequest {
  id: number;
  recipient: string;
  plaintext: Uint8Array;
}

export type SealAnswer = { id: number; sealed: Uint8Array } | { id: number; error: string };

/** What a seal worker does with one request (the worker's entry passes messages here). */
export async function answerSeal(req: SealRequest): Promise<{ answer: SealAnswer; transfer: ArrayBuffer[] }> {
  try {
    const sealed = await sealInThread(req.recipient, req.plaintext);
    return { answer: { id: req.id, sealed }, transfer: [sealed.buffer as ArrayBuffer] };
  } catch (error) {
    return { answer: { id: req.id, error: error instanceof Error ? error.message : String(error) }, transfer: [] };
  }
}

/** A worker as the pool sees it (a Web Worker or a Node worker thread, wrapped). */
export interface SealPort {
  post(req: SealRequest, transfer: ArrayBuffer[]): void;
  /** Busy (true) while a request is out: a Node worker thread keeps the process alive only then. */
  busy?(yes: boolean): void;
  terminate(): void;
}

export interface SealPool {
  seal: SealFn;
  close(): void;
}

/**
 * A pool of `size` workers made on first use by `make` (which wires the port's answers to the
 * callback it is given). Each request goes to an idle worker, or waits for one.
 */
export function sealPool(size: number, make: (onAnswer: (a: SealAnswer) => void, onFailure: (e: Error) => void) => SealPort): SealPool {
  const ports: SealPort[] = [];
  const idle: SealPort[] = [];
  const waiting: ((p: SealPort) => void)[] = [];
  const pending = new Map<number, { resolve(b: Uint8Array): void; reject(e: Error): void; port: SealPort }>();
  let next = 1;
  const release = (port: SealPort) => {
    const w = waiting.shift();
    if (w) w(port);
    else {
      idle.push(port);
      port.busy?.(false);
    }
  };
  const acquire = (): Promise<SealPort> => {
    const port = idle.pop();
    if (port) return Promise.resolve(port);
    if (ports.length < size) {
      const made: SealPort = make(
        (a) => {
          const p = pending.get(a.id);
          if (!p) return;
          pending.delete(a.id);
          if ('sealed' in a) p.resolve(a.sealed);
          else p.reject(new Error(`sealing a pack failed: ${a.error}`));
          release(p.port);
        },
        (error) => {
          // a worker that died fails what it held; a new one takes its place for what waits
          for (const [id, p] of pending)
            if (p.port === made) {
              pending.delete(id);
              p.reject(error);
            }
          ports.splice(ports.indexOf(made), 1);
          const w = waiting.shift();
          if (w) void acquire().then(w);
        },
      );
      ports.push(made);
      return Promise.resolve(made);
    }
    return new Promise((resolve) => waiting.push(resolve));
  };
  return {
    async seal(recipient, plaintext) {
      // the plaintext moves to the worker: a view of a larger buffer is copied first
      const own = plaintext.byteOffset === 0 && plaintext.byteLength === plaintext.buffer.byteLength ? plaintext : plaintext.slice();
      const port = await acquire();
      port.busy?.(true);
      const id = next++;
      return new Promise<Uint8Array>((resolve, reject) => {
        pending.set(id, { resolve, reject, port });
        port.post({ id, recipient, plaintext: own }, [own.buffer as ArrayBuffer]);
      });
    },
    close() {
      for (const p of ports) p.terminate();
      for (const p of pending.values()) p.reject(new Error('the sealing workers were closed'));
      pending.clear();
      ports.length = 0;
      idle.length = 0;
    },
  };
}
