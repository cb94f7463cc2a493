// infra/plugins/build-folders.d.cts — types of build-folders.cjs for the TypeScript tests and tools.
declare class BuildFolders {
  constructor(serverless: unknown);
}
declare namespace BuildFolders {
  /** The work folders serverless-esbuild builds in, per command. */
  const FOLDERS: Readonly<{ offline: string; package: string }>;
  /** The work folder for a command line; `override` (ESBUILD_WORK_FOLDER) wins when set. */
  function workFolderFor(commands: readonly string[], override?: string): string;
}
export = BuildFolders;
