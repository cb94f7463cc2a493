// infra/local/s3-server.ts — runs s3rver (the local object store) in the foreground, on 127.0.0.1
// only, with its buckets on disk under $WEIBO_LOCAL_DIR/s3/data, so objects survive a restart.
// Creates the media bucket with its CORS rules at every start (existing objects are kept).
// Private objects (`<bucket>/private/…`, message pictures) are served only to a valid, unexpired
// presigned GET: infra/local/private-gate.ts answers 403 to anything else before s3rver sees it
// (s3rver serves every object to anyone, and never checks a V4 signature itself).
// Started and stopped by `infra/local/stack.sh start|stop s3` (node --import tsx, pid file);
// SIGTERM / SIGINT close the listener and exit.
//
//   S3_PORT          port                         default 19000
//   MEDIA_BUCKET     bucket created at start      default weibo-local-media
//   WEIBO_LOCAL_DIR  state dir                    default <repo>/.local
//   S3_LOG_REQUESTS  1: log every request to stdout (stack.sh sends it to s3/logs/s3.log)
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import {
  localCorsConfigurationXml,
  localMediaBucket,
  localObjectStoreDataDir,
  localObjectStorePort,
} from './object-store.js';
import { accessDeniedXml, privateGate } from './private-gate.js';

/** The part of s3rver 3.7's API used here (the package ships no types). */
interface S3rverInstance {
  run(): Promise<{ address: string; port: number }>;
  close(): Promise<void>;
  httpServer?: Server;
  /** Koa's: the request listener run() puts on its HTTP server. */
  callback(): (req: IncomingMessage, res: ServerResponse) => void;
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

// The gate stands in front of s3rver's own listener (run() asks callback() for it).
const s3rverListener = server.callback.bind(server);
server.callback = () => {
  const handle = s3rverListener();
  return (req, res) => {
    const verdict = privateGate(req, bucket);
    if (verdict.pass) return handle(req, res);
    if (process.env.S3_LOG_REQUESTS === '1') say(`403 ${req.method} ${req.url?.split('?')[0]} (${verdict.reason})`);
    res.writeHead(403, { 'content-type': 'application/xml' });
    res.end(req.method === 'HEAD' ? undefined : accessDeniedXml(verdict.reason));
  };
};

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
