/** The Debian mirror apt uses on this machine, for debootstrap. */
import { readFile } from "node:fs/promises";

/** Where {@link aptMirror} looks: apt's deb822 and one-line source files. */
const SOURCE_FILES = ["/etc/apt/sources.list.d/debian.sources", "/etc/apt/sources.list"];

/**
 * The first Debian archive (a URI ending in `/debian`) in apt's sources, else `http://deb.debian.org/debian`.
 *
 * @example
 * await aptMirror(); // "http://deb.debian.org/debian"
 */
export async function aptMirror(): Promise<string> {
  for (const path of SOURCE_FILES) {
    const text = await readFile(path, "utf8").catch(() => "");
    // Hand-written: the two line shapes of apt's own files, nothing more (the security archive ends
    // in /debian-security and is passed over).
    const uri =
      /^URIs:\s*(https?:\/\/\S+\/debian)\/?\s*$/m.exec(text)?.[1] ??
      /^deb\s+(?:\[[^\]]*\]\s+)?(https?:\/\/\S+\/debian)\/?\s/m.exec(text)?.[1];
    if (uri !== undefined) return uri;
  }
  return "http://deb.debian.org/debian";
}
