// An S3 server (s3rver) in its own process for the sync bench, as a real provider would be:
// prints its endpoint and bucket as one JSON line, stops on SIGTERM.
import { startS3 } from '../sync/servers.ts';

const s3 = await startS3({ bucket: 'bench' });
console.log(JSON.stringify({ endpoint: s3.endpoint, bucket: s3.bucket }));
process.on('SIGTERM', () => {
  s3.stop().then(() => process.exit(0));
});
