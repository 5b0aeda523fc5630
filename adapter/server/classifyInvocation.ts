import { describeType } from "../../contract/wire/index.js";
import type { InvocationKind, Problem } from "./types.js";

/** Which wire format a request body is, or the problem that says why none fits. */
export type Classification = { ok: true; kind: InvocationKind } | { ok: false; problem: Problem };

const SHAPES: ReadonlyArray<{ kind: InvocationKind; fields: readonly string[] }> = [
  { kind: "semif", fields: ["decision", "decisions"] },
  { kind: "systemone", fields: ["questions"] },
  { kind: "chat", fields: ["messages"] },
];

/**
 * Decides the wire format of a `POST /invocations` body by its shape: `decision`/`decisions` is
 * SemIf, `questions` is System One, `messages` is an OpenAI chat completion. A body with fields of
 * two formats, or of none, is a problem.
 */
export function classifyInvocation(body: unknown): Classification {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return {
      ok: false,
      problem: { field: "body", message: `must be a JSON object, got ${describeType(body)}` },
    };
  }
  const matches = SHAPES.filter((shape) =>
    shape.fields.some((field) => (body as Record<string, unknown>)[field] !== undefined),
  );
  const [only, second] = matches;
  if (only !== undefined && second === undefined) return { ok: true, kind: only.kind };
  if (only === undefined) {
    return {
      ok: false,
      problem: {
        field: "body",
        message:
          "expected a SemIf request ({decision} or {decisions}), a System One request ({state, questions}) or a chat completion request ({messages})",
      },
    };
  }
  const fields = matches.flatMap((shape) =>
    shape.fields.filter((field) => (body as Record<string, unknown>)[field] !== undefined),
  );
  return {
    ok: false,
    problem: { field: "body", message: `mixes fields of different request formats: ${fields.join(", ")}` },
  };
}
