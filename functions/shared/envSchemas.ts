import { z } from "zod";
import { ConfigError } from "./ConfigError.js";

/**
 * An optional integer environment variable in [min, max], `fallback` when unset or empty; the
 * issue names the accepted range and the text given.
 */
export function envInteger(min: number, max: number, fallback: number) {
  return z
    .string()
    .optional()
    .transform((text, context) => {
      if (text === undefined || text.trim() === "") return fallback;
      const value = Number(text);
      if (!Number.isInteger(value) || value < min || value > max) {
        context.addIssue({
          code: "custom",
          message: `must be an integer from ${min} to ${max}, got "${text}"`,
        });
        return z.NEVER;
      }
      return value;
    });
}

/** A required, non-empty environment variable. */
export const envRequired = z.string({ error: "is required" }).trim().min(1, { error: "is required" });

/**
 * Parses `env` with `schema` or throws a {@link ConfigError} naming every bad variable.
 */
export function parseEnvironment<T extends z.ZodType>(
  functionName: string,
  schema: T,
  env: NodeJS.ProcessEnv,
): z.infer<T> {
  const parsed = schema.safeParse(env);
  if (parsed.success) return parsed.data;
  throw new ConfigError(
    functionName,
    parsed.error.issues.map((issue) => ({ variable: String(issue.path[0]), message: issue.message })),
  );
}
