// web/serve.ts — serves a built client the way the deployed stack does (infra/resources/web.yml:
// CloudFront in front of the bucket and of the API): static files, and /api/* passed to the
// API with the prefix stripped, so the page and the API share one origin (no CORS preflights,
// the same round trips as production). Used by `npm start` and the browser tests. Static
// files carry the security headers of web/security-headers.ts (CSP, Referrer-Policy, HSTS), as
// CloudFront's response-headers policy adds them deployed; API answers pass as the API sent them.
// WebSocket upgrades at /api/live go to the live channel (`liveTarget`), as CloudFront routes
// that path to the WebSocket API deployed: the client connects to its own origin everywhere.
import { createReadStream, statSync } from 'node:fs';
import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { connect as netConnect, type Socket } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import { constants, createBrotliCompress, createGzip } from 'node:zlib';
import { securityHeaders } from './security-headers.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

function serveFile(root: string, security: Record<string, string>, req: IncomingMessage, res: ServerResponse): void {
  let path: string;
  try {
    path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
  } catch {
    res.writeHead(400).end();
    return;
  }
  if (path.endsWith('/')) path += 'index.html';
  const file = normalize(join(root, path));
  if (!file.startsWith(root + sep)) {
    res.writeHead(403).end();
    return;
  }
  try {
    if (!statSync(file).isFile()) throw new Error('not a file');
  } catch {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
    return;
  }
  // Hashed bundles never change; everything else is revalidated (as the deploy uploads them).
  const immutable = /\/app-[A-Z0-9]+\.(js|css)$/.test(path);
  // Text goes compressed when the browser takes it, as CloudFront's compression does deployed
  // (the bundle is about a quarter of its size in gzip); Vary keeps caches from mixing them.
  const type = TYPES[extname(file)] ?? 'application/octet-stream';
  const accepts = String(req.headers['accept-encoding'] ?? '');
  const encoding = !COMPRESSIBLE.test(type)
    ? null
    : /\bbr\b/.test(accepts)
      ? 'br'
      : /\bgzip\b/.test(accepts)
        ? 'gzip'
        : null;
  res.writeHead(200, {
    ...security,
    'content-type': type,
    'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
    vary: 'accept-encoding',
    ...(encoding ? { 'content-encoding': encoding } : {}),
  });
  const body = createReadStream(file);
  // Brotli at quality 5, compressed per request as CloudFront does on the fly: the default (11)
  // spends about 5 s of CPU per request on the API reference's 1.7 MB Swagger UI bundle, for an
  // output only about 10 % smaller.
  if (encoding === 'br')
    body.pipe(createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } })).pipe(res);
  else if (encoding === 'gzip') body.pipe(createGzip()).pipe(res);
  else body.pipe(res);
}

const COMPRESSIBLE = /^(text\/|application\/json|image\/svg)/;
const BROTLI_QUALITY = 5;

function proxy(apiUrl: URL, req: IncomingMessage, res: ServerResponse): void {
  const target = new URL((req.url ?? '/').replace(/^\/api/, '') || '/', apiUrl);
  const headers = { ...req.headers, host: target.host };
  const upstream = httpRequest(target, { method: req.method, headers }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  upstream.on('error', () => {
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { code: 'bad_gateway', message: 'The API did not answer' } }));
  });
  req.pipe(upstream);
}

const LIVE_PATH = '/api/live';

/**
 * A WebSocket upgrade at /api/live, passed to the live channel byte for byte: the request is
 * written again with the target's path and host (every other header as sent, the sub-protocols
 * that carry the token included), then both sockets are piped into each other.
 */
function proxyUpgrade(liveUrl: URL | undefined, req: IncomingMessage, client: Socket, head: Buffer): void {
  const path = new URL(req.url ?? '/', 'http://x').pathname;
  if (!liveUrl || path !== LIVE_PATH) {
    client.end('HTTP/1.1 404 Not Found\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
    return;
  }
  const upstream = netConnect(Number(liveUrl.port || 80), liveUrl.hostname);
  const lines = [`${req.method ?? 'GET'} ${liveUrl.pathname}${liveUrl.search} HTTP/1.1`];
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i]!;
    lines.push(`${name}: ${name.toLowerCase() === 'host' ? liveUrl.host : req.rawHeaders[i + 1]}`);
  }
  upstream.on('connect', () => {
    upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
    if (head.length > 0) upstream.write(head);
    upstream.pipe(client);
    client.pipe(upstream);
  });
  upstream.on('error', () => {
    if (client.writable && upstream.bytesRead === 0)
      client.end('HTTP/1.1 502 Bad Gateway\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
    else client.destroy();
  });
  client.on('error', () => upstream.destroy());
  upstream.on('close', () => client.destroy());
  client.on('close', () => upstream.destroy());
}

/**
 * `objectStoreUrl`: the local object store (s3rver), where pictures are read and uploads PUT.
 * `liveTarget`: the live channel's WebSocket server (ws://host:port), reached through /api/live.
 */
export function serveWeb(opts: {
  dir: string;
  apiUrl: string;
  port: number;
  objectStoreUrl: string;
  liveTarget?: string;
  host?: string;
}): Promise<Server> {
  const root = normalize(opts.dir);
  const api = new URL(opts.apiUrl);
  const store = new URL(opts.objectStoreUrl).origin;
  const security = securityHeaders({ images: [store], connect: [store] });
  const server = createServer((req, res) => {
    if (req.url === '/api' || req.url?.startsWith('/api/')) proxy(api, req, res);
    else serveFile(root, security, req, res);
  });
  const live = opts.liveTarget ? new URL(opts.liveTarget.replace(/^ws/, 'http')) : undefined;
  server.on('upgrade', (req, socket, head) => proxyUpgrade(live, req, socket as Socket, head));
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host ?? '127.0.0.1', () => resolve(server));
  });
}
