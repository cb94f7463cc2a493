// infra/local/s3-server.ts — runs s3rver (the local object store) in the foreground, on 127.0.0.1
// only, with its buckets on disk under $WEIBO_LOCAL_DIR/s3/data, so objects survive a restart.
// Creates the media bucket with its CORS rules at every start (existing objects are kept).
// Started and stopped by `infra/local/stack.sh start|stop s3` (node --import tsx, pid file);
// SIGTERM / SIGINT close the listener and exit.
//
//   S3_PORT          port                         default 19000
//   MEDIA_BUCKET     bucket created at start      default weibo-local-media
//   WEIBO_LOCAL_DIR  state dir                    default <repo>/.local
//   S3_LOG_REQUESTS  1: log every request to stdout (stack.sh sends it to s3/logs/s3.log)
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Server } from 'node:http';
import {
  localCorsConfigurationXml,
  localMediaBucket,
  localObjectStoreDataDir,
  localObjectStorePort,
} from './object-store.js';

/** The part of s3rver 3.7's API used here (the package ships no types). */
interface S3rverInstance {
  run(): Promise<{ address: string; port: number }>;
  close(): Promise<void>;
  httpServer?: Server;
}
type S3rverConstructor = new (options: {
  address: string;
  port: number;
  directory: string;
  silent: boolean;
  vhostBuckets: boolean;
  configureBuckets: { name: string; configs: string[] }[];
}) => S3rverInstance;

const require = createRequire(import.meta.url);
const S3rver = require('s3rver') as S3rverConstructor;

const say = (line: string) => console.log(`${new Date().toISOString()} [s3-server] ${line}`);

const port = localObjectStorePort();
const bucket = localMediaBucket();
const directory = localObjectStoreDataDir();
mkdirSync(directory, { recursive: true });

const server = new S3rver({
  address: '127.0.0.1',
  port,
  directory,
  silent: process.env.S3_LOG_REQUESTS !== '1',
  // Path-style only: a bucket in the Host name would need wildcard DNS for 127.0.0.1.
  vhostBuckets: false,
  configureBuckets: [{ name: bucket, configs: [localCorsConfigurationXml()] }],
});

let stopping = false;
for (const sig of ['SIGTERM', 'SIGINT'] as const) {
  process.on(sig, () => {
    if (stopping) return;
    stopping = true;
    say(`${sig}: closing`);
    // Keep-alive connections would hold close() open: end them, then the listener.
    server.httpServer?.closeAllConnections();
    server.close().then(
      () => process.exit(0),
      () => process.exit(0),
    );
  });
}

try {
  const address = await server.run();
  say(
    `listening on http://${address.address}:${address.port}; bucket ${bucket} (CORS: loopback origins); data ${directory}`,
  );
} catch (err) {
  say(`failed to start: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
