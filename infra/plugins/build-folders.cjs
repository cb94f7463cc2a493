// infra/plugins/build-folders.cjs — gives serverless-esbuild a build folder per command, so
// `serverless package` (which deletes its folder when done) never removes the bundles a running
// serverless-offline (`npm start`, the e2e run) loads its handlers from: every call would then
// answer with an ImportModuleError. ESBUILD_WORK_FOLDER, when set, wins (a run of its own).
// Under the emulator it also stops esbuild's service process once the functions are bundled:
// that Go process keeps the heap of the build (0.9 GB seen after `npm start`) and never gives it
// back. A watched change's rebuild starts a fresh one (esbuild starts its service on demand),
// stopped again once the functions are updated.
'use strict';

const FOLDERS = Object.freeze({ offline: '.esbuild/offline', package: '.esbuild/package' });

/** The work folder for a command line (`['offline', 'start']`, `['package']`, `['deploy']`…). */
function workFolderFor(commands, override = '') {
  if (override) return override;
  return commands[0] === 'offline' ? FOLDERS.offline : FOLDERS.package;
}

class BuildFolders {
  constructor(serverless) {
    // The configuration is resolved before any plugin is built, and serverless-esbuild reads its
    // options on `initialize`, after every constructor: setting it here is in time.
    const esbuild = serverless.service.custom?.esbuild;
    if (!esbuild) return;
    esbuild.outputWorkFolder = workFolderFor(serverless.processedInput?.commands ?? [], esbuild.outputWorkFolder || '');
    // After the bundling (serverless-esbuild's `before:offline:start:init`), and after each
    // rebuild of a watched change (it then spawns `offline:functionsUpdated`, whose cleanup we join).
    this.hooks = {
      'offline:start:init': () => stopEsbuildService(),
      'offline:functionsUpdated:cleanup': () => stopEsbuildService(),
    };
  }
}

/** Ends esbuild's service process (the module serverless-esbuild builds with); the next build starts another. */
function stopEsbuildService() {
  const esbuild = require(require.resolve('esbuild', { paths: [require.resolve('serverless-esbuild')] }));
  return esbuild.stop();
}

module.exports = BuildFolders;
module.exports.workFolderFor = workFolderFor;
module.exports.FOLDERS = FOLDERS;
