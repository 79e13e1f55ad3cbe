// S3-compatible buckets through aws4fetch (SigV4), path-style URLs: `<endpoint>/<bucket>/<prefix><name>`.
import { AwsClient } from 'aws4fetch';
import type { S3Settings, SpaceObject, Transport } from '../types.ts';
import { bodyOf, classifyFetchError, classifyS3, httpError, s3Code } from './classify.ts';
import { xmlText } from './xml.ts';

const encodeKey = (key: string): string => key.split('/').map(encodeURIComponent).join('/');

/** Options for tests: a fixed signing time (clock-skew checks). */
export interface S3Options {
  datetime?: () => string | undefined;
}

export function s3Transport(settings: S3Settings, options: S3Options = {}): Transport {
  const client = new AwsClient({
    accessKeyId: settings.accessKeyId,
    secretAccessKey: settings.secretAccessKey,
    service: 's3',
    region: settings.region || 'us-east-1',
    retries: 0,
  });
  const base = `${settings.endpoint.replace(/\/+$/, '')}/${encodeURIComponent(settings.bucket)}`;
  const where = `S3 bucket ${settings.bucket} at ${settings.endpoint}`;
  const prefix = settings.prefix;

  async function call(
    method: string,
    url: string,
    what: string,
    object?: string,
    body?: Uint8Array,
    signal?: AbortSignal,
    headers?: Record<string, string>,
  ): Promise<Response> {
    const datetime = options.datetime?.();
    let res: Response;
    try {
      res = await client.fetch(url, { method, body: body as BodyInit | undefined, signal, headers, ...(datetime ? { aws: { datetime } } : {}) });
    } catch (error) {
      throw await classifyFetchError(error, url, where, what);
    }
    if (res.ok) return res;
    const text = method === 'HEAD' ? '' : await res.text().catch(() => '');
    const provider = s3Code(text);
    const code = classifyS3(res.status, provider, method === 'PUT' || method === 'DELETE');
    throw httpError(code, where, what, res.status, provider, object);
  }

  return {
    kind: 's3',
    where,
    async put(name, bytes, signal) {
      const res = await call('PUT', `${base}/${encodeKey(prefix + name)}`, `PUT ${name}`, name, bytes, signal);
      await res.body?.cancel();
    },
    async get(name, signal) {
      const res = await call('GET', `${base}/${encodeKey(prefix + name)}`, `GET ${name}`, name, undefined, signal);
      return bodyOf(res, where, `GET ${name}`);
    },
    async head(name, bytes, signal) {
      // a single "bytes=0-N" range is CORS-safelisted: the bucket's CORS rule needs nothing more
      const res = await call('GET', `${base}/${encodeKey(prefix + name)}`, `GET ${name} (its first ${bytes} bytes)`, name, undefined, signal, {
        Range: `bytes=0-${bytes - 1}`,
      });
      return bodyOf(res, where, `GET ${name}`);
    },
    async list(sub, signal) {
      const out: SpaceObject[] = [];
      let token: string | null = null;
      do {
        const q = new URLSearchParams({ 'list-type': '2', prefix: prefix + sub });
        if (token) q.set('continuation-token', token);
        const res = await call('GET', `${base}?${q}`, `LIST ${sub}`, undefined, undefined, signal);
        const xml = new TextDecoder().decode(await bodyOf(res, where, `LIST ${sub}`));
        for (const m of xml.matchAll(/<Contents>([\s\S]*?)<\/Contents>/g)) {
          const key = xmlText(/<Key>([\s\S]*?)<\/Key>/.exec(m[1])?.[1] ?? '');
          if (!key.startsWith(prefix)) continue;
          const size = Number(/<Size>(\d+)<\/Size>/.exec(m[1])?.[1] ?? 0);
          const modified = Date.parse(/<LastModified>([^<]+)<\/LastModified>/.exec(m[1])?.[1] ?? '') || 0;
          out.push({ name: key.slice(prefix.length), size, modified });
        }
        token = /<IsTruncated>true<\/IsTruncated>/.test(xml)
          ? xmlText(/<NextContinuationToken>([^<]+)<\/NextContinuationToken>/.exec(xml)?.[1] ?? '') || null
          : null;
      } while (token);
      return out;
    },
    async delete(name, signal) {
      try {
        const res = await call('DELETE', `${base}/${encodeKey(prefix + name)}`, `DELETE ${name}`, name, undefined, signal);
        await res.body?.cancel();
      } catch (error) {
        if ((error as { code?: string }).code !== 'not-found') throw error;
      }
    },
  };
}
