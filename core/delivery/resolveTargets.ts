import type { DeliveryTarget, PolicySet } from "../policy/index.js";
import { resolveSecret } from "./resolveSecret.js";

/** A target of a loaded policy with its secret resolved. */
export interface ResolvedTarget {
  /** `<policy>/<target name>`: how failures, the CLI and the AWS resources name it. */
  key: string;
  policy: string;
  target: DeliveryTarget;
  /** The `whsec_…` secret of a url target; undefined for a bus target. */
  secret: string | undefined;
}

/**
 * Every `deliver:` target of the loaded policies, its `env:` secret read from `env` once, so a
 * missing or malformed secret stops the start instead of failing each delivery later.
 *
 * @throws DeliverySecretError naming the target and the variable.
 */
export function resolveTargets(
  policies: PolicySet,
  env: Readonly<Record<string, string | undefined>>,
): ResolvedTarget[] {
  return policies
    .names()
    .flatMap((name) => policies.get(name)?.deliver.map((target) => ({ name, target })) ?? [])
    .map(({ name, target }) => {
      const key = `${name}/${target.name}`;
      return {
        key,
        policy: name,
        target,
        secret: target.secret === undefined ? undefined : resolveSecret(key, target.secret, env),
      };
    });
}

/**
 * The target `key` (`<policy>/<name>`) of the loaded policies with its secret resolved from `env`,
 * or undefined when no loaded policy declares it. Only this target's secret is read.
 *
 * @throws DeliverySecretError when its secret cannot be used.
 */
export function resolveTarget(
  policies: PolicySet,
  key: string,
  env: Readonly<Record<string, string | undefined>>,
): ResolvedTarget | undefined {
  const slash = key.indexOf("/");
  const policy = policies.get(key.slice(0, slash));
  const target = policy?.deliver.find((candidate) => candidate.name === key.slice(slash + 1));
  if (policy === undefined || target === undefined) return undefined;
  return {
    key,
    policy: policy.name,
    target,
    secret: target.secret === undefined ? undefined : resolveSecret(key, target.secret, env),
  };
}
