// infra/esbuild/plugins.cjs — esbuild plugins for the functions' bundles (serverless.yml
// custom.esbuild.plugins).
//
// undici's HTTP/1 client carries its parser (llhttp) twice as WebAssembly: a SIMD build, which it
// loads, and a build without SIMD, which it loads only where the SIMD one fails to compile. Every
// Node 22 runtime on x86_64 and arm64 compiles SIMD, so the fallback is left out of the bundles:
// in its place a module that says why, should it ever be loaded.
const { sep } = require('node:path');

/** @type {import('esbuild').Plugin} */
const withoutLlhttpFallback = {
  name: 'without-llhttp-fallback',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/llhttp\/llhttp-wasm\.js$/ }, (args) =>
      args.importer.includes(`${sep}undici${sep}lib${sep}`)
        ? { path: 'llhttp-wasm-fallback', namespace: 'without-llhttp-fallback' }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'without-llhttp-fallback' }, () => ({
      contents:
        "throw new Error('undici: the WebAssembly SIMD build of llhttp failed to load, and its fallback is not bundled (infra/esbuild/plugins.cjs)');",
      loader: 'js',
    }));
  },
};

module.exports = [withoutLlhttpFallback];
