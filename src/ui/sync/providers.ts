// The providers the setup form knows: what to type in each field, and the CORS rule to paste with
// where it goes (docs/sync.md says the same at more length). The browser reaches only storage that
// allows the app's origin; there is no proxy of ours. (The worker's "Check" gives the generic rule
// of a kind; here each provider's own format.)

export type ProviderId = 'r2' | 'b2' | 'aws' | 'minio' | 'wasabi' | 's3' | 'webdav' | 'folder';

export interface Provider {
  id: ProviderId;
  label: string;
  kind: 's3' | 'webdav' | 'folder';
  endpoint?: string;
  region?: string;
  /** Where the CORS rule goes, step by step. */
  corsWhere: string;
  /** The rule itself for an app at `origin` (empty: none needed). */
  cors(origin: string): string;
}

/** The S3 console's JSON (R2 and AWS take it as it is). */
const s3Json = (origin: string) =>
  JSON.stringify(
    [{ AllowedOrigins: [origin], AllowedMethods: ['GET', 'PUT', 'DELETE', 'HEAD'], AllowedHeaders: ['*'], ExposeHeaders: ['ETag'], MaxAgeSeconds: 3600 }],
    null,
    2,
  );

const davHeaders = (origin: string) =>
  [
    `Access-Control-Allow-Origin: ${origin}`,
    'Access-Control-Allow-Methods: GET, PUT, DELETE, PROPFIND, MKCOL, OPTIONS',
    'Access-Control-Allow-Headers: Authorization, Content-Type, Depth',
    'Access-Control-Expose-Headers: ETag',
  ].join('\n');

/** B2's own rule format (its S3 API honours it; the web console's presets do not cover PUT/DELETE). */
const b2Rules = (origin: string) =>
  JSON.stringify(
    [
      {
        corsRuleName: 'rho-sessions',
        allowedOrigins: [origin],
        allowedOperations: ['s3_get', 's3_put', 's3_delete', 's3_head'],
        allowedHeaders: ['*'],
        exposeHeaders: ['ETag'],
        maxAgeSeconds: 3600,
      },
    ],
    null,
    2,
  );

const awsCli = (origin: string) => JSON.stringify({ CORSRules: JSON.parse(s3Json(origin)) }, null, 2);

export const PROVIDERS: Provider[] = [
  {
    id: 'r2',
    label: 'Cloudflare R2',
    kind: 's3',
    endpoint: 'https://<account id>.r2.cloudflarestorage.com',
    region: 'auto',
    corsWhere: 'Cloudflare dashboard → R2 → your bucket → Settings → CORS Policy → Add CORS policy: paste the JSON and save.',
    cors: s3Json,
  },
  {
    id: 'b2',
    label: 'Backblaze B2',
    kind: 's3',
    endpoint: 'https://s3.<region>.backblazeb2.com',
    region: '<region, e.g. us-west-004>',
    corsWhere:
      'With the b2 command line: b2 bucket update --cors-rules "$(cat rules.json)" <bucket> allPrivate (the web console’s CORS presets do not allow uploads).',
    cors: b2Rules,
  },
  {
    id: 'aws',
    label: 'Amazon S3',
    kind: 's3',
    endpoint: 'https://s3.<region>.amazonaws.com',
    region: 'us-east-1',
    corsWhere: 'S3 console → your bucket → Permissions → Cross-origin resource sharing (CORS) → Edit: paste the JSON and save.',
    cors: s3Json,
  },
  {
    id: 'minio',
    label: 'MinIO',
    kind: 's3',
    endpoint: 'https://minio.example.com',
    region: 'us-east-1',
    corsWhere:
      'MinIO allows every origin unless told otherwise; if yours is restricted: mc admin config set <alias> api cors_allow_origin="<this app’s origin>" and restart it.',
    cors: (origin) => `cors_allow_origin="${origin}"`,
  },
  {
    id: 'wasabi',
    label: 'Wasabi',
    kind: 's3',
    endpoint: 'https://s3.<region>.wasabisys.com',
    region: 'us-east-1',
    corsWhere: 'With the AWS command line: aws s3api put-bucket-cors --bucket <bucket> --cors-configuration file://cors.json --endpoint-url <endpoint>.',
    cors: awsCli,
  },
  {
    id: 's3',
    label: 'Other S3-compatible (Garage, Ceph…)',
    kind: 's3',
    endpoint: 'https://…',
    region: 'us-east-1',
    corsWhere: 'Set the bucket’s CORS configuration (PutBucketCors) to this rule, e.g. aws s3api put-bucket-cors … --endpoint-url <endpoint>.',
    cors: awsCli,
  },
  {
    id: 'webdav',
    label: 'WebDAV (Nextcloud, ownCloud, Synology, Apache)',
    kind: 'webdav',
    corsWhere:
      'Nextcloud: install the “WebAppPassword” app and add this app’s origin under its WebDAV CORS setting. ownCloud: Settings → Personal → CORS → add the origin. Apache (mod_headers): add these headers, and answer OPTIONS without a password.',
    cors: davHeaders,
  },
  {
    id: 'folder',
    label: 'A folder another tool syncs (Syncthing, Dropbox, iCloud Drive)',
    kind: 'folder',
    corsWhere: 'Nothing to set: the folder is on this device.',
    cors: () => '',
  },
];

export const providerById = (id: string): Provider => PROVIDERS.find((p) => p.id === id) ?? PROVIDERS[0];

/** The provider an S3 endpoint belongs to, for the rule shown after a failed Check. */
export function providerOfEndpoint(endpoint: string): Provider {
  if (/r2\.cloudflarestorage\.com/.test(endpoint)) return providerById('r2');
  if (/backblazeb2\.com/.test(endpoint)) return providerById('b2');
  if (/amazonaws\.com/.test(endpoint)) return providerById('aws');
  if (/wasabisys\.com/.test(endpoint)) return providerById('wasabi');
  return providerById('s3');
}
