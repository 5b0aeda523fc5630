import {
  type JsonNode,
  JsonText,
  jsonNodeAt,
  pythonJsonDumpsNode,
  SHARED_STATE_MESSAGE,
} from "../../contract/wire/index.js";
import type { DecisionState } from "../engine/types.js";
import { formatFieldPath } from "./fieldPath.js";
import type { JsonBody } from "./readJsonBody.js";
import type { Invocation, Validation } from "./types.js";

/**
 * Gives a validated invocation the states as the request wrote them: an object or array state
 * becomes a {@link JsonText} of its own text, so the engine renders it as SemIf's Python does (key
 * order as written, `2.0` a float) and `prompt_sha256` matches; a string state stays a string.
 * The decisions of a shared request must render the same text (their values may be equal while
 * their spelling differs: `{"a": 2}` and `{"a": 2.0}`); each that does not is a problem.
 */
export function adoptTextStates(invocation: Invocation, body: JsonBody): Validation<Invocation> {
  if (invocation.kind === "chat") return { ok: true, value: invocation };
  if (invocation.kind === "systemone") {
    const state = stateOf(body, ["state"]);
    return { ok: true, value: { ...invocation, request: { ...invocation.request, state } } };
  }
  if (invocation.shape === "single") {
    const state = stateOf(body, ["decision", "state"]);
    return { ok: true, value: { ...invocation, batch: { ...invocation.batch, state } } };
  }
  const rendered = invocation.batch.questions.map((_question, index) =>
    pythonJsonDumpsNode(nodeAt(body, ["decisions", index, "state"])),
  );
  const problems = rendered.flatMap((text, index) =>
    text === rendered[0]
      ? []
      : [{ field: formatFieldPath(["decisions", index, "state"]), message: SHARED_STATE_MESSAGE }],
  );
  if (problems.length > 0) return { ok: false, problems };
  const state = stateOf(body, ["decisions", 0, "state"]);
  return { ok: true, value: { ...invocation, batch: { ...invocation.batch, state } } };
}

function nodeAt(body: JsonBody, path: readonly (string | number)[]): JsonNode {
  const node = jsonNodeAt(body.node, path);
  // The schema has checked the value at this path, which was parsed from this very tree.
  if (node === undefined) throw new RangeError(`no value at ${formatFieldPath(path)} of a validated body`);
  return node;
}

function stateOf(body: JsonBody, path: readonly (string | number)[]): DecisionState {
  const node = nodeAt(body, path);
  if (node.kind === "string") return node.value;
  return new JsonText(body.text.slice(node.start, node.end));
}
