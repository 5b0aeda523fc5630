import { jsonValueOf } from "./jsonValueOf.js";
import { type ParseJsonTextOptions, parseJsonText } from "./parseJsonText.js";
import { pythonJsonDumpsNode } from "./pythonJsonDumpsNode.js";
import type { JsonNode, JsonValue } from "./types.js";

/**
 * A JSON value given as its text, so that it can be shown to the model exactly as SemIf (Python)
 * would show it: keys in written order, `2.0` kept a float. Pass one as a decision state where a
 * plain object would lose that (`JSON.parse` reorders integer-like keys and forgets `2.0`).
 * The text is parsed (and so validated) by the constructor.
 *
 * `JSON.stringify` of a `JsonText` gives its value (see {@link JsonText.toJSON}).
 *
 * @throws JsonTextError from the constructor when the text is not strict JSON, repeats a key, or
 *   nests deeper than `options.maxDepth` (default 64).
 * @example new JsonText('{"2024": "x", "a": 2.0}').toPython() === '{"2024": "x", "a": 2.0}'
 */
export class JsonText {
  /** The text as given. */
  readonly text: string;
  /** Its parsed tree. */
  readonly node: JsonNode;
  #python: string | undefined;

  constructor(text: string, options: Pick<ParseJsonTextOptions, "maxDepth"> = {}) {
    this.node = parseJsonText(text, options);
    this.text = text;
  }

  /** The value as Python's `json.dumps(json.loads(text), ensure_ascii=False)` prints it. */
  toPython(): string {
    this.#python ??= pythonJsonDumpsNode(this.node);
    return this.#python;
  }

  /** The plain value, as `JSON.parse(text)` gives it (a fresh copy on each call). */
  toValue(): JsonValue {
    return jsonValueOf(this.node);
  }

  /** Lets `JSON.stringify` write the value rather than the parse tree. */
  toJSON(): JsonValue {
    return this.toValue();
  }
}
