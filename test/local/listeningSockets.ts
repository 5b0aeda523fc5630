/** The TCP sockets a process listens on, read from /proc (Linux), for bind-address assertions. */
import { readdir, readFile, readlink } from "node:fs/promises";

/** One listening TCP socket: its local address as dotted IPv4 or IPv6 hex, and its port. */
export interface ListeningSocket {
  family: "tcp" | "tcp6";
  address: string;
  port: number;
}

const LISTEN = "0A";

/** Every TCP socket in LISTEN state owned by the process `pid` (from /proc/net/tcp and tcp6). */
export async function listeningSockets(pid: number): Promise<ListeningSocket[]> {
  const inodes = new Set<string>();
  for (const fd of await readdir(`/proc/${pid}/fd`)) {
    const target = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => "");
    const match = /^socket:\[(\d+)\]$/.exec(target);
    if (match?.[1] !== undefined) inodes.add(match[1]);
  }
  const sockets: ListeningSocket[] = [];
  for (const family of ["tcp", "tcp6"] as const) {
    const table = await readFile(`/proc/net/${family}`, "utf8");
    for (const line of table.split("\n").slice(1)) {
      const fields = line.trim().split(/\s+/);
      const [local, state, inode] = [fields[1], fields[3], fields[9]];
      if (local === undefined || state !== LISTEN || inode === undefined || !inodes.has(inode)) continue;
      const [hex, portHex] = local.split(":");
      sockets.push({ family, address: decodeAddress(hex ?? ""), port: Number.parseInt(portHex ?? "", 16) });
    }
  }
  return sockets;
}

/** /proc/net/tcp writes an IPv4 address as 8 hex digits in host (little-endian) byte order. */
function decodeAddress(hex: string): string {
  if (hex.length === 8) {
    return [6, 4, 2, 0].map((offset) => Number.parseInt(hex.slice(offset, offset + 2), 16)).join(".");
  }
  return hex;
}
