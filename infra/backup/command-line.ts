// infra/backup/command-line.ts — what `npm run backup` and `npm run restore` share of their
// command lines: options taken off argv as they are read, and lines prefixed with the command.
export function commandLine(command: string, argv: string[] = process.argv.slice(2)) {
  const fail = (why: string, code = 1): never => {
    console.error(`${command}: ${why}`);
    process.exit(code);
  };
  return {
    /** What is left once options and flags are taken: the positional arguments. */
    argv,
    say: (line: string) => console.log(`${command}: ${line}`),
    fail,
    secondsSince: (t: number) => `${((Date.now() - t) / 1000).toFixed(1)} s`,
    /** `--flag value`, taken off argv; undefined when absent. */
    option(flag: string): string | undefined {
      const at = argv.indexOf(flag);
      if (at < 0) return undefined;
      const value = argv[at + 1];
      if (!value || value.startsWith('--')) fail(`${flag} needs a value`, 2);
      argv.splice(at, 2);
      return value;
    },
    /** `--flag` alone, taken off argv. */
    flag(flag: string): boolean {
      const at = argv.indexOf(flag);
      if (at >= 0) argv.splice(at, 1);
      return at >= 0;
    },
  };
}
