/**
 * The main process's log: stderr, one line per message.
 *
 * stdout is reserved (the serve shell prints exactly one line there, its URL).
 */
export interface Logger {
  info(message: string): void;
  warn(message: string, error?: unknown): void;
  error(message: string, error?: unknown): void;
}

export const stderrLogger: Logger = {
  info: (message) => process.stderr.write(`[flint] ${message}\n`),
  warn: (message, error) => process.stderr.write(`[flint] warning: ${message}${describe(error)}\n`),
  error: (message, error) => process.stderr.write(`[flint] error: ${message}${describe(error)}\n`),
};

/** A logger that keeps lines in memory, for tests that assert on what was logged. */
export function createMemoryLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    info: (message) => lines.push(`info: ${message}`),
    warn: (message, error) => lines.push(`warning: ${message}${describe(error)}`),
    error: (message, error) => lines.push(`error: ${message}${describe(error)}`),
  };
}

function describe(error: unknown): string {
  if (error === undefined) return '';
  if (error instanceof Error) return `: ${error.stack ?? error.message}`;
  return `: ${String(error)}`;
}
