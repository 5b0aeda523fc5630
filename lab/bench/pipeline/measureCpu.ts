import { readCpuSeconds } from "../../reliability/processStats.js";

/** CPU seconds each part used while a task ran; null where it cannot be read (no /proc). */
export type CpuByPart = Record<string, number | null>;

/**
 * Runs `task` and reports the CPU seconds each process used meanwhile: the child processes by pid
 * (the adapter, DynamoDB Local's JVM) from /proc, and this process (fauxqs, the gateway, the poller,
 * the decide handler and the bench's proxy all run in it) from `process.cpuUsage`. On a machine
 * where the emulators share the cores with the adapter, this says how much of them they took.
 */
export async function measureCpu<T>(
  children: Record<string, number | undefined>,
  task: () => Promise<T>,
): Promise<{ value: T; cpu: CpuByPart; wallS: number }> {
  const read = async (): Promise<Record<string, number | undefined>> =>
    Object.fromEntries(
      await Promise.all(
        Object.entries(children).map(async ([name, pid]) => [
          name,
          pid === undefined ? undefined : await readCpuSeconds(pid),
        ]),
      ),
    );
  const before = await read();
  const ownBefore = process.cpuUsage();
  const started = performance.now();
  const value = await task();
  const wallS = (performance.now() - started) / 1000;
  const own = process.cpuUsage(ownBefore);
  const after = await read();
  const cpu: CpuByPart = {
    "bench process (fauxqs, gateway, poller, handler)": round((own.user + own.system) / 1e6),
  };
  for (const name of Object.keys(children)) {
    const start = before[name];
    const end = after[name];
    cpu[name] = start === undefined || end === undefined ? null : round(end - start);
  }
  return { value, cpu, wallS: round(wallS) };
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
