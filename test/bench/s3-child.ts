// An S3 server (s3rver) in its own process for the sync bench, as a real provider would be:
// prints its endpoint and bucket as one JSON line, stops on SIGTERM or when the bench's pipe closes.
import { startS3 } from '../sync/servers.ts';

const s3 = await startS3({ bucket: 'bench' });
console.log(JSON.stringify({ endpoint: s3.endpoint, bucket: s3.bucket }));
const stop = () => {
  setTimeout(() => process.exit(0), 2000).unref(); // connections left open must not keep it alive
  s3.stop().then(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.stdin.on('end', stop); // the bench is gone (its end of the pipe closed)
process.stdin.resume();
