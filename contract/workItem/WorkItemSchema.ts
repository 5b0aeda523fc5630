import { z } from "zod";

/** Longest work item id accepted, in UTF-8 bytes (DynamoDB sort keys allow 1024; ids are kept short). */
export const MAX_ITEM_ID_BYTES = 512;

/** Longest policy name accepted, in UTF-8 bytes (the partition key; `<policy>#<status>` must stay under 2048). */
export const MAX_POLICY_NAME_BYTES = 256;

/** A surrogate code unit not part of a pair (with the `u` flag a pair is one code point). */
const LONE_SURROGATE = /\p{Cs}/u;

// The web-standard encoder rather than Node's Buffer, so that the contract needs no Node runtime;
// both count a lone surrogate as the 3 bytes of U+FFFD, so lengths are the same.
const UTF8 = new TextEncoder();

/** Bytes of `text` in UTF-8. */
function utf8Bytes(text: string): number {
  return UTF8.encode(text).byteLength;
}

/**
 * A control character (C0, DEL, C1) or a bidirectional control: in an id or a policy name it would
 * act on the terminal or spreadsheet of the person reading it (ESC repaints a line, U+202E reverses
 * it), so keys refuse them.
 */
const CONTROL = /[\p{Cc}\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

/**
 * Whether `text` is storable as a DynamoDB key: non-empty, well-formed Unicode (a lone surrogate
 * has no UTF-8 form), free of control characters and at most `maxBytes` UTF-8 bytes.
 */
export function isStorableKey(text: unknown, maxBytes: number): text is string {
  return (
    typeof text === "string" &&
    text !== "" &&
    !LONE_SURROGATE.test(text) &&
    !CONTROL.test(text) &&
    utf8Bytes(text) <= maxBytes
  );
}

/** Where `text`'s first control character is, as `U+001B at index 3`, or undefined. */
function controlIn(text: string): string | undefined {
  const match = CONTROL.exec(text);
  if (match === null) return undefined;
  const code = (match[0].codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0");
  return `U+${code} at index ${match.index}`;
}

const key = (maxBytes: number) =>
  z
    .string()
    .min(1)
    .refine((text) => !LONE_SURROGATE.test(text), {
      error: "must be well-formed Unicode (no lone surrogates)",
    })
    .superRefine((text, context) => {
      const found = controlIn(text);
      if (found !== undefined) {
        context.addIssue({
          code: "custom",
          message: `must not contain control characters (U+0000–U+001F, U+007F–U+009F) or bidirectional controls; found ${found}`,
        });
      }
    })
    .refine((text) => utf8Bytes(text) <= maxBytes, {
      error: `must be at most ${maxBytes} bytes of UTF-8`,
    });

const jsonValue: z.ZodType<unknown> = z.json();

/**
 * A work item as a producer writes it (the SQS message body, a JSONL line):
 * `{id, policy, state, facts?, submitted_at?}`. `state` is what the model sees (free text, or a
 * JSON object or array); `facts` are structured attributes for the policy's rules, checked later
 * against the policy's declarations. Unknown top-level fields are refused (a typo such as `fact`
 * must not silently drop the facts).
 */
export const WorkItemSchema = z.strictObject({
  id: key(MAX_ITEM_ID_BYTES),
  policy: key(MAX_POLICY_NAME_BYTES),
  state: z.union([z.string().min(1), z.array(jsonValue), z.record(z.string(), jsonValue)], {
    error: "must be a non-empty string, an array or an object",
  }),
  facts: z.record(z.string(), jsonValue).optional(),
  submitted_at: z.iso.datetime({ offset: true }).optional(),
});

/** A validated work item. */
export type WorkItemInput = z.infer<typeof WorkItemSchema>;

/**
 * The zod issues of a failed parse as one readable line (`path: message; …`) and the first path,
 * for a `rejected` outcome's reason.
 */
export function describeIssues(error: z.ZodError): { reason: string; path: (string | number)[] } {
  const parts = error.issues.map((issue) => {
    const path = issue.path.map(String).join(".");
    return path === "" ? issue.message : `${path}: ${issue.message}`;
  });
  return {
    reason: parts.join("; "),
    path: (error.issues[0]?.path ?? []).filter((s): s is string | number => typeof s !== "symbol"),
  };
}
