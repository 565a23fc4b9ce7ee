/** A port the example was told to use (an env variable) is taken by another program. */
export class PortTakenError extends Error {
  constructor(
    readonly variable: string,
    readonly port: number,
  ) {
    super(`Port ${port} is taken: set ${variable} to a free port (e.g. ${variable}=${port + 1} npm run example).`);
    this.name = 'PortTakenError';
  }

  /** `error` as a PortTakenError when it is a taken-port error of `port`, else `error` unchanged. */
  static from(error: unknown, variable: string, port: number): unknown {
    const code = (error as NodeJS.ErrnoException | undefined)?.code;
    const viteMessage = error instanceof Error && /Port \d+ is already in use/.test(error.message);
    return code === 'EADDRINUSE' || viteMessage ? new PortTakenError(variable, port) : error;
  }
}

/**
 * The port in env variable `variable`, or `fallback`.
 * @throws Error naming the variable when it is not a port number.
 */
export function portFromEnv(variable: string, fallback: number): number {
  const value = process.env[variable];
  if (value === undefined || value === '') return fallback;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new Error(`${variable} must be a port number from 1 to 65535; got "${value}".`);
  }
  return port;
}
