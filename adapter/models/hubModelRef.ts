import { ModelHubError } from "./errors.js";

/** A file of a hub repository at a revision: what `decisions models pull` fetches. */
export interface HubModelRef {
  /** The repository, `<owner>/<name>`. */
  repo: string;
  /** The file's path in the repository, e.g. `Qwen3-0.6B-Q8_0.gguf` or `Q4_K_M/model.gguf`. */
  file: string;
  /** A branch, a tag or a commit sha; {@link DEFAULT_HUB_REVISION} when none is named. */
  revision: string;
}

/** The revision pulled when none is named: the repository's default branch. */
export const DEFAULT_HUB_REVISION = "main";

/** The scheme of a hub model URI: `hf:<owner>/<name>/<file>[@<revision>]`. */
export const HUB_URI_SCHEME = "hf:";

const REPO_PART = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** Whether `text` names a hub model (`hf:…`) rather than a file. */
export function isHubModelUri(text: string): boolean {
  return text.startsWith(HUB_URI_SCHEME);
}

/**
 * Parses `hf:<owner>/<name>/<file>[@<revision>]` (the file may sit in folders of the repository;
 * the revision is a branch, a tag or a commit sha, default `main`).
 * @throws {ModelHubError} (`bad-reference`) naming what is wrong with the URI.
 * @example
 * ```ts
 * parseHubModelUri("hf:Qwen/Qwen3-0.6B-GGUF/Qwen3-0.6B-Q8_0.gguf@main");
 * // { repo: "Qwen/Qwen3-0.6B-GGUF", file: "Qwen3-0.6B-Q8_0.gguf", revision: "main" }
 * ```
 */
export function parseHubModelUri(uri: string): HubModelRef {
  if (!isHubModelUri(uri)) throw invalid(`"${uri}" is not a hub model URI (hf:<owner>/<name>/<file.gguf>)`);
  const body = uri.slice(HUB_URI_SCHEME.length);
  const at = body.lastIndexOf("@");
  const path = at < 0 ? body : body.slice(0, at);
  const revision = at < 0 ? DEFAULT_HUB_REVISION : body.slice(at + 1);
  const [owner, name, ...file] = path.split("/");
  if (owner === undefined || name === undefined || file.length === 0) {
    throw invalid(
      `"${uri}" names no file: write hf:<owner>/<name>/<file.gguf>[@<revision>] (e.g. hf:Qwen/Qwen3-0.6B-GGUF/Qwen3-0.6B-Q8_0.gguf)`,
    );
  }
  return hubModelRef({ repo: `${owner}/${name}`, file: file.join("/"), revision });
}

/**
 * Checks a repository, file and revision and returns them as one reference (revision defaulting to
 * `main`).
 * @throws {ModelHubError} (`bad-reference`) naming the part that cannot be a hub name: a repository not `<owner>/<name>`, a file path that is empty,
 *   absolute or climbs out (`..`), a revision with spaces.
 */
export function hubModelRef(input: {
  repo: string;
  file: string;
  revision?: string | undefined;
}): HubModelRef {
  const { repo, file } = input;
  const revision = input.revision ?? DEFAULT_HUB_REVISION;
  const parts = repo.split("/");
  if (parts.length !== 2 || !parts.every((part) => REPO_PART.test(part) && !part.includes(".."))) {
    throw new ModelHubError(
      `"${repo}" is not a repository name: give <owner>/<name> (letters, digits, ".", "_", "-")`,
      "bad-reference",
    );
  }
  const segments = file.split("/");
  if (
    file.length === 0 ||
    file.includes("\\") ||
    segments.some((segment) => segment === "" || segment === "." || segment === "..") ||
    hasControlCharacter(file)
  ) {
    throw invalid(`"${file}" is not a file path of a repository (no leading "/", no "..", no empty part)`);
  }
  if (
    revision.length === 0 ||
    /\s/.test(revision) ||
    hasControlCharacter(revision) ||
    revision.includes("..")
  ) {
    throw new ModelHubError(
      `"${revision}" is not a revision: give a branch, a tag or a commit sha`,
      "bad-reference",
    );
  }
  return { repo, file, revision };
}

/** The URI of a reference: `hf:<owner>/<name>/<file>@<revision>`. */
export function formatHubModelUri(ref: HubModelRef): string {
  return `${HUB_URI_SCHEME}${ref.repo}/${ref.file}@${ref.revision}`;
}

function hasControlCharacter(text: string): boolean {
  return [...text].some((character) => character.charCodeAt(0) < 0x20);
}

function invalid(message: string): ModelHubError {
  return new ModelHubError(message, "bad-reference");
}
