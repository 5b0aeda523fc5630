/**
 * Runs `action` with process.stdout captured and returns its lines with the action's result:
 * Powertools writes EMF metrics there, which tests read (and keep out of the test report).
 */
export async function captureStdout<T>(action: () => Promise<T>): Promise<{ result: T; lines: string[] }> {
  const lines: string[] = [];
  const write = process.stdout.write;
  process.stdout.write = ((chunk: string | Uint8Array) => {
    lines.push(...String(chunk).split("\n").filter(Boolean));
    return true;
  }) as typeof process.stdout.write;
  try {
    return { result: await action(), lines };
  } finally {
    process.stdout.write = write;
  }
}
