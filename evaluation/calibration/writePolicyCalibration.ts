import { CST, Parser } from "yaml";
import { bumpVersion } from "./bumpVersion.js";
import { PolicyWriteError } from "./errors.js";

/** What to write for one question. */
export interface QuestionCalibration {
  /** Written as `questions.<id>.temperature`; absent: left as it is. */
  temperature?: number;
  /** Written as `questions.<id>.threshold`; absent: left as it is. */
  threshold?: number;
}

/** What {@link writePolicyCalibration} returns. */
export interface PolicyCalibrationEdit {
  /** The new file text. */
  text: string;
  /** The version before and after. */
  previous_version: string;
  version: string;
}

/**
 * Writes calibrated temperatures and thresholds into a policy file's text and bumps its top-level
 * `version` (see {@link bumpVersion}), keeping everything else byte for byte: comments, quoting,
 * key order and the line breaks of folded descriptions.
 *
 * It edits yaml's concrete syntax tree (`Parser`, `CST.setScalarValue`, `CST.stringify`) rather
 * than a `Document`: `parseDocument(…).toString()` keeps comments too, but re-wraps every folded
 * (`>-`) description and re-spaces flow sequences, turning a two-value change into a whole-file
 * diff. A scalar keeps its style (`version: "3"` stays quoted) and its trailing comment; a
 * `temperature` the question lacks is inserted after its `threshold`, at the same indentation.
 *
 * @throws PolicyWriteError when the file has no top-level block mapping with `version`, or a
 *   question named in `updates` is not a block mapping under `questions`
 */
export function writePolicyCalibration(
  text: string,
  updates: Readonly<Record<string, QuestionCalibration>>,
): PolicyCalibrationEdit {
  const tokens = [...new Parser().parse(text)];
  const document = tokens.find((token): token is CST.Document => token.type === "document");
  const root = document?.value;
  if (root?.type !== "block-map") throw new PolicyWriteError([], "the file is not a YAML block mapping");
  const versionItem = itemOf(root, "version");
  if (versionItem === undefined || !CST.isScalar(versionItem.value)) {
    throw new PolicyWriteError(["version"], "the policy has no scalar version");
  }
  const previous = CST.resolveAsScalar(versionItem.value)?.value ?? "";
  const version = bumpVersion(previous);
  CST.setScalarValue(versionItem.value, version);
  const questions = itemOf(root, "questions")?.value;
  for (const [id, update] of Object.entries(updates)) {
    const question = questions?.type === "block-map" ? itemOf(questions, id)?.value : undefined;
    if (question?.type !== "block-map") {
      throw new PolicyWriteError(["questions", id], "not a block mapping in the policy file");
    }
    if (update.threshold !== undefined) setScalar(question, ["questions", id, "threshold"], update.threshold);
    if (update.temperature !== undefined) {
      setScalar(question, ["questions", id, "temperature"], update.temperature, "threshold");
    }
  }
  return { text: tokens.map((token) => CST.stringify(token)).join(""), previous_version: previous, version };
}

type BlockMap = CST.BlockMap;
type BlockMapItem = BlockMap["items"][number];

function itemOf(map: BlockMap, key: string): BlockMapItem | undefined {
  return map.items.find((item) => item.key !== null && item.key !== undefined && keyOf(item) === key);
}

function keyOf(item: BlockMapItem): string | undefined {
  return item.key !== null && item.key !== undefined && CST.isScalar(item.key)
    ? CST.resolveAsScalar(item.key)?.value
    : undefined;
}

/** Sets `key: value` in a block map: the existing scalar in place, else a new line after `after`. */
function setScalar(map: BlockMap, path: string[], value: number, after?: string): void {
  const key = path.at(-1) ?? "";
  const existing = itemOf(map, key);
  if (existing !== undefined) {
    if (existing.value === null || existing.value === undefined || !CST.isScalar(existing.value)) {
      throw new PolicyWriteError(path, "the existing value is not a scalar");
    }
    CST.setScalarValue(existing.value, String(value));
    return;
  }
  const anchor = (after === undefined ? undefined : itemOf(map, after)) ?? map.items.at(-1);
  const indent = map.indent;
  const newline = (): CST.SourceToken => ({ type: "newline", offset: 0, indent, source: "\n" });
  const before = anchor?.value;
  if (before !== null && before !== undefined && CST.isScalar(before) && before.type !== "block-scalar") {
    // The line before the new one must end; the last line of a file may not.
    before.end ??= [];
    const end = before.end;
    if (!end.some((token) => token.type === "newline")) end.push(newline());
  }
  const item: BlockMapItem = {
    start: indent > 0 ? [{ type: "space", offset: 0, indent: 0, source: " ".repeat(indent) }] : [],
    key: CST.createScalarToken(key, { indent, end: [] }),
    sep: [
      { type: "map-value-ind", offset: 0, indent, source: ":" },
      { type: "space", offset: 0, indent, source: " " },
    ],
    value: CST.createScalarToken(String(value), { indent, end: [newline()] }),
  };
  const position = anchor === undefined ? map.items.length : map.items.indexOf(anchor) + 1;
  map.items.splice(position, 0, item);
}
