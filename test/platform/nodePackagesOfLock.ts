/**
 * package.json and package-lock.json as the Node.js package tests read them, and the lock's packages
 * that carry a `node` binary.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

const ROOT = new URL("../../", import.meta.url).pathname;

/** One package entry of package-lock.json. */
export interface LockEntry {
  version: string;
  os?: string | string[];
  cpu?: string | string[];
  bin?: Record<string, string>;
  optional?: boolean;
  dev?: boolean;
}

/** The repository's package.json. */
export const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
};

/** The repository's package-lock.json. */
export const lock = JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8")) as {
  packages: Record<string, LockEntry>;
};

/** Every package in the lock that links a `node` binary into node_modules/.bin. */
export const nodeBinaryPackages = Object.entries(lock.packages)
  .filter(([path, entry]) => path.startsWith("node_modules/") && entry.bin?.node !== undefined)
  .map(([path]) => path.slice("node_modules/".length));
