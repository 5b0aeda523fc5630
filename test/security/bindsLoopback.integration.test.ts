/**
 * Every server `decisions up` starts listens on 127.0.0.1 only (issue 11, "Security"): the
 * listening TCP sockets of the `up` process and of every process below it (DynamoDB Local's JVM,
 * the adapter) are read from /proc while the stack runs.
 */
import assert from "node:assert/strict";
import type { ChildProcess } from "node:child_process";
import { once } from "node:events";
import { readdir, readFile } from "node:fs/promises";
import { after, before, describe, it } from "node:test";
import { listeningSockets } from "../local/listeningSockets.js";
import { startUpProcess } from "../support/startUpProcess.js";

const LOOPBACK_V6_MAPPED = "0000000000000000FFFF00000100007F";

/** `pid` and every process below it, from the parent ids in /proc/<pid>/stat. */
async function processTree(pid: number): Promise<number[]> {
  const parents = new Map<number, number>();
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, "utf8").catch(() => "");
    // The command name may hold spaces and parentheses: the fields after the last ")" are fixed.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (fields[1] !== undefined) parents.set(Number(entry), Number(fields[1]));
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) {
    for (const [child, parent] of parents) if (parent === tree[i]) tree.push(child);
  }
  return tree;
}

describe("decisions up binds loopback only (integration)", { timeout: 300_000 }, () => {
  let child: ChildProcess;
  let info: Record<string, string>;

  before(async () => {
    ({ child, info } = await startUpProcess());
  });

  after(async () => {
    if (child.exitCode === null) {
      child.kill("SIGINT");
      await once(child, "exit");
    }
  });

  it("listens on 127.0.0.1 in every process it started, on each endpoint it printed", async () => {
    const pids = await processTree(child.pid ?? 0);
    const sockets = (await Promise.all(pids.map((pid) => listeningSockets(pid).catch(() => [])))).flat();

    assert.ok(pids.length >= 3, `expected up, DynamoDB Local and the adapter: ${pids.join(", ")}`);
    const wide = sockets.filter(
      (socket) => socket.address !== "127.0.0.1" && socket.address !== LOOPBACK_V6_MAPPED,
    );
    assert.deepEqual(wide, [], `sockets not on loopback: ${JSON.stringify(wide)}`);
    const ports = new Set(sockets.map((socket) => socket.port));
    for (const key of ["sqs_endpoint", "dynamodb_endpoint", "s3_endpoint", "gateway_url", "adapter_url"]) {
      const port = Number(new URL(info[key] ?? "http://x:0").port);
      assert.ok(
        ports.has(port),
        `${key} (${info[key]}) is not among the listening ports ${[...ports].join(", ")}`,
      );
    }
  });
});
