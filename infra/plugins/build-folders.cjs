// infra/plugins/build-folders.cjs — gives serverless-esbuild a build folder per command, so
// `serverless package` (which deletes its folder when done) never removes the bundles a running
// serverless-offline (`npm start`, the e2e run) loads its handlers from: every call would then
// answer with an ImportModuleError. ESBUILD_WORK_FOLDER, when set, wins (a run of its own).
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
  }
}

module.exports = BuildFolders;
module.exports.workFolderFor = workFolderFor;
module.exports.FOLDERS = FOLDERS;
