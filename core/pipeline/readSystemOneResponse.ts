import { z } from "zod";
import { type SystemOneResponse, SystemOneResponseSchema } from "../../contract/wire/index.js";
import { InvalidEndpointResponseError } from "../endpoint/errors.js";
import type { Policy } from "../policy/index.js";

/** A validated System One response and the prompt hashes it carries, if any. */
export interface ReadResponse {
  response: SystemOneResponse;
  /**
   * `prompt_sha256` as the response gives it: one string (top level), or question id → hash
   * (from each answer). Undefined when the response carries none.
   */
  promptSha256: string | Record<string, string> | undefined;
}

const sha256 = z.string().regex(/^[0-9a-f]{64}$/);
const PromptHashes = z.object({
  prompt_sha256: z.union([sha256, z.record(z.string(), sha256)]).optional(),
  answers: z.record(z.string(), z.object({ prompt_sha256: sha256.optional() })).optional(),
});

/**
 * Parses and validates the endpoint's answer to a group's System One request: the wire schema,
 * one answer per question the policy asked, of the type it asked.
 *
 * @throws InvalidEndpointResponseError when the body is not such a response (not retried,
 *   not a rejection: the records go back to SQS).
 */
export function readSystemOneResponse(body: string, policy: Policy, endpointName: string): ReadResponse {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (error) {
    throw new InvalidEndpointResponseError(endpointName, "the body is not JSON", { cause: error });
  }
  const parsed = SystemOneResponseSchema.safeParse(value);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new InvalidEndpointResponseError(
      endpointName,
      `${first?.path.map(String).join(".") || "(body)"}: ${first?.message ?? "does not match the System One response"}`,
      { cause: parsed.error },
    );
  }
  for (const question of policy.questions) {
    const answer = parsed.data.answers[question.id];
    if (answer?.type !== question.type) {
      throw new InvalidEndpointResponseError(
        endpointName,
        answer === undefined
          ? `no answer to question "${question.id}"`
          : `question "${question.id}" was answered as ${answer.type}, asked as ${question.type}`,
      );
    }
  }
  return { response: parsed.data, promptSha256: promptHashesOf(value) };
}

function promptHashesOf(value: unknown): string | Record<string, string> | undefined {
  const hashes = PromptHashes.safeParse(value);
  if (!hashes.success) return undefined;
  if (hashes.data.prompt_sha256 !== undefined) return hashes.data.prompt_sha256;
  const perAnswer = Object.entries(hashes.data.answers ?? {}).flatMap(([qid, answer]) =>
    answer.prompt_sha256 === undefined ? [] : [[qid, answer.prompt_sha256] as const],
  );
  return perAnswer.length === 0 ? undefined : Object.fromEntries(perAnswer);
}
