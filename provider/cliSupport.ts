/** What the package's commands (`devicemgmt-export`, `devicemgmt-drift`) share: their output streams and usage errors. */
import { ENV_KEYS } from "./connection";
import { terminalText } from "./printable";

export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
}

export const processIo: CliIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
};

/**
 * The streams a command writes through: whatever it prints (names of the organization, of a state file, error
 * messages quoting them) reaches the terminal with its control characters shown as escapes, never obeyed.
 */
export function printableIo(io: CliIo): CliIo {
  return {
    stdout: (text) => io.stdout(terminalText(text)),
    stderr: (text) => io.stderr(terminalText(text)),
  };
}

/** A mistake in how the command was called: printed with the usage text, exit status 2. */
export class UsageError extends Error {}

/** The API token, from the environment only (never the command line, where other users and logs see it). */
export function apiTokenFromEnv(env: NodeJS.ProcessEnv, hint = ""): string {
  const apiToken = (env[ENV_KEYS.apiToken] ?? "").trim();
  if (!apiToken) {
    throw new UsageError(
      `No API token: set the environment variable DEVICEMGMT_API_TOKEN to a v3 token of the organization${hint}.`,
    );
  }
  return apiToken;
}

/** Refuses a token given as an argument, before anything else is read. */
export function refuseTokenArguments(argv: string[]): void {
  if (argv.some((arg) => /^--?(api[-_]?)?token(=|$)/i.test(arg))) {
    throw new UsageError(
      "A token on the command line would end up in shell history and process lists. " +
        "Set the environment variable DEVICEMGMT_API_TOKEN instead.",
    );
  }
}
