// Real storage servers on loopback for sync tests (Node and browser specs alike): an in-process
// S3 server (s3rver, with the bucket's CORS rule), an in-process WebDAV server (webdav-server, with
// CORS headers and unauthenticated preflights, as real servers answer them), and a fault proxy between a client and either.
// Each listens on 127.0.0.1 port 0; `stop()` closes it.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// @ts-expect-error s3rver ships no types
import S3rver from 's3rver';
import { v2 as webdav } from 'webdav-server';
import type { S3Settings } from '../../src/sync/types.ts';

export const S3_KEY = 'S3RVER';
export const S3_SECRET = 'S3RVER';

/** The CORS rule an S3 bucket needs for the app (docs/sync.md shows the same for each provider). */
export function s3CorsXml(origins: string[] = ['*']): string {
  const rules = origins.map((o) => `<AllowedOrigin>${o}</AllowedOrigin>`).join('');
  return `<CORSConfiguration><CORSRule>${rules}<AllowedMethod>GET</AllowedMethod><AllowedMethod>PUT</AllowedMethod><AllowedMethod>DELETE</AllowedMethod><AllowedMethod>HEAD</AllowedMethod><AllowedHeader>*</AllowedHeader><ExposeHeader>ETag</ExposeHeader><MaxAgeSeconds>3600</MaxAgeSeconds></CORSRule></CORSConfiguration>`;
}

export interface S3Server {
  endpoint: string;
  bucket: string;
  directory: string;
  /** A sync space's settings for this server's bucket under `prefix`, with the server's keys. */
  settings(prefix: string): S3Settings;
  stop(): Promise<void>;
}

/** s3rver in this process with one bucket (`cors: false` leaves the bucket without a CORS rule). */
export async function startS3(opts: { bucket?: string; cors?: boolean; origins?: string[] } = {}): Promise<S3Server> {
  const bucket = opts.bucket ?? 'sessions';
  const directory = mkdtempSync(join(tmpdir(), 'rho-s3-'));
  const configs = opts.cors === false ? [] : [s3CorsXml(opts.origins)];
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory, configureBuckets: [{ name: bucket, configs }] });
  const address = (await server.run()) as AddressInfo;
  const endpoint = `http://127.0.0.1:${address.port}`;
  return {
    endpoint,
    bucket,
    directory,
    settings: (prefix) => ({ kind: 's3', endpoint, region: 'us-east-1', bucket, prefix, accessKeyId: S3_KEY, secretAccessKey: S3_SECRET }),
    async stop() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

export interface DavServer {
  url: string;
  username: string;
  password: string;
  /** A second user who may read but not write. */
  reader: { username: string; password: string };
  stop(): Promise<void>;
}

/** webdav-server in this process, in memory, one user with all rights on `/`, CORS for any origin. */
export async function startWebDav(opts: { cors?: boolean } = {}): Promise<DavServer> {
  const users = new webdav.SimpleUserManager();
  const user = users.addUser('alice', 'wonderland', false);
  const reader = users.addUser('bob', 'builder', false);
  const rights = new webdav.SimplePathPrivilegeManager();
  rights.setRights(user, '/', ['all']);
  rights.setRights(reader, '/', ['canRead', 'canReadLocks', 'canReadProperties', 'canReadContent']);
  const server = new webdav.WebDAVServer({
    port: 0,
    hostname: '127.0.0.1',
    httpAuthentication: new webdav.HTTPBasicAuthentication(users, 'rho'),
    privilegeManager: rights,
    requireAuthentification: true,
  });
  // As Nextcloud, ownCloud and Apache do: a CORS preflight is answered without credentials, and
  // every answer (a 401 too) carries the CORS headers, so the browser shows the app the real status.
  const http = createServer((req, res) => {
    const origin = req.headers.origin;
    if (opts.cors !== false && origin) {
      res.setHeader('Access-Control-Allow-Origin', origin);
      res.setHeader('Access-Control-Allow-Methods', 'GET, PUT, DELETE, PROPFIND, MKCOL, OPTIONS');
      res.setHeader('Access-Control-Allow-Headers', 'Authorization, Content-Type, Depth');
      res.setHeader('Access-Control-Expose-Headers', 'ETag');
      if (req.method === 'OPTIONS' && req.headers['access-control-request-method']) {
        req.resume();
        res.writeHead(204, { 'Access-Control-Max-Age': '3600' }).end();
        return;
      }
    }
    server.executeRequest(req, res);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    username: 'alice',
    password: 'wonderland',
    reader: { username: 'bob', password: 'builder' },
    stop: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

/** What the fault proxy does to the nth request. */
export type Fault = 'pass' | '500' | 'drop' | 'truncate' | 'slow';

export interface FaultProxy {
  url: string;
  /** Requests seen, and faults done, by kind. */
  counts: Record<Fault, number>;
  /** Changes the cycle from the next request on (`['pass']`: a plain pass-through). */
  setSchedule(schedule: Fault[]): void;
  stop(): Promise<void>;
}

/**
 * A proxy in front of `target` that answers some requests with a fault, in a fixed cycle (so a
 * run is repeatable): `schedule[i % schedule.length]` for the ith request.
 */
export async function startFaultProxy(target: string, schedule: Fault[], slowMs = 300): Promise<FaultProxy> {
  const to = new URL(target);
  const counts: Record<Fault, number> = { pass: 0, '500': 0, drop: 0, truncate: 0, slow: 0 };
  let n = 0;
  let cycle = schedule;
  const forward = (req: IncomingMessage, res: ServerResponse, fault: Fault) => {
    const up = httpRequest({ host: to.hostname, port: to.port, method: req.method, path: req.url, headers: { ...req.headers, host: to.host } }, (answer) => {
      if (fault === 'truncate') {
        const chunks: Buffer[] = [];
        answer.on('data', (c: Buffer) => chunks.push(c));
        answer.on('end', () => {
          const body = Buffer.concat(chunks);
          res.writeHead(answer.statusCode ?? 502, { ...answer.headers, 'content-length': String(body.length) });
          res.write(body.subarray(0, Math.floor(body.length / 2)));
          res.socket?.destroy();
        });
        return;
      }
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    up.on('error', () => res.socket?.destroy());
    req.pipe(up);
  };
  const server = createServer((req, res) => {
    const fault = cycle[n++ % cycle.length];
    counts[fault]++;
    if (fault === '500') {
      req.resume();
      res.writeHead(500, { 'content-type': 'text/plain', 'access-control-allow-origin': '*' }).end('injected fault');
    } else if (fault === 'drop') {
      req.resume();
      req.socket.destroy();
    } else if (fault === 'slow') setTimeout(() => forward(req, res, 'pass'), slowMs);
    else forward(req, res, fault);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${to.pathname === '/' ? '' : to.pathname}`,
    counts,
    setSchedule(next) {
      cycle = next;
      n = 0;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
