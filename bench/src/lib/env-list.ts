/** A comma-separated environment variable as its trimmed, non-empty items (`undefined` when it is not set). */
export function envList(name: string): string[] | undefined {
  return process.env[name]?.split(',').map((value) => value.trim()).filter(Boolean);
}
