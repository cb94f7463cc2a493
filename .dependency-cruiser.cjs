// .dependency-cruiser.cjs — the floors of shared/ and who may import whom (docs/architecture.md).
// `npm run lint` checks it; a forbidden import fails `npm test`. Type-only imports count too: a
// type names a dependency.
const floor = (name) => `^shared/${name}/`;
const only = (name, ...allowed) => ({
  name: `${name}-imports-only-${allowed.join('-')}`,
  comment: `shared/${name}/ imports only ${allowed.map((a) => `shared/${a}/`).join(', ')} of ours`,
  severity: 'error',
  from: { path: floor(name) },
  to: {
    path: '^(shared|functions|infra|test|web)/',
    pathNot: allowed.map(floor),
  },
});

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'An import cycle: the floors would have no order',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    // The lowest floors: the runtime (the invocation scope, the deadline, bounded parallelism) and
    // the domain know nothing else of ours; the HBase client knows only the protocol.
    only('runtime', 'runtime'),
    only('domain', 'domain'),
    only('hbase', 'hbase', 'runtime'),
    only('logging', 'logging', 'runtime'),
    only('observability', 'observability', 'logging', 'runtime', 'hbase', 'domain'),
    // Ports speak the product's language; use cases hold the product's rules and speak to storage,
    // queues and cryptography only through ports.
    only('ports', 'ports', 'domain'),
    only('use-cases', 'use-cases', 'ports', 'domain', 'runtime'),
    only('validation', 'validation', 'domain'),
    only('config', 'config', 'domain', 'runtime'),
    // Row keys and column layouts: built from the domain's identifiers with the client's codec.
    only('schema', 'schema', 'domain', 'hbase'),
    // Adapters implement ports; the credentials' cryptography is one of them.
    only('adapters', 'adapters', 'ports', 'domain', 'schema', 'hbase', 'runtime', 'observability', 'logging', 'config'),
    only('auth', 'auth', 'ports', 'domain', 'config'),
    {
      name: 'http-wires-no-capability',
      comment:
        'shared/http/ (the middy chain every route shares) reaches only the token keys of the wiring: a capability container there would ride in every bundle',
      severity: 'error',
      from: { path: floor('http') },
      to: {
        path: [floor('wiring'), floor('adapters'), '^functions/'],
        pathNot: ['^shared/wiring/(tokens|secrets)\\.ts$'],
      },
    },
    {
      name: 'shared-is-below-functions',
      comment: 'shared/ never imports a handler, the infrastructure, the tests or the web client',
      severity: 'error',
      from: { path: '^shared/' },
      to: { path: '^(functions|infra|test|web)/' },
    },
    {
      name: 'functions-stand-alone',
      comment: "A handler imports shared/ and its folder's helpers, never another handler",
      severity: 'error',
      from: { path: '^functions/' },
      to: { path: '^functions/', pathNot: '^functions/(schedule/job-handler|queue/record-batch)\\.ts$' },
    },
    {
      name: 'web-client-is-its-own',
      comment: 'The web client is built for the browser: it imports nothing of the server',
      severity: 'error',
      from: { path: '^web/src/' },
      to: { path: '^(shared|functions|infra)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['^node_modules', '^web/dist', '\\.esbuild', '\\.serverless'] },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.cjs', '.mjs', '.json'],
    },
  },
};
