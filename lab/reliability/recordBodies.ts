/**
 * Arbitrary and adversarial SQS message bodies for the decide function: valid work items and
 * EventBridge events of the shipped policies with one node replaced, a key added or a raw fragment
 * spliced in; arbitrary text; arbitrary JSON; and poison messages that must be rejected.
 */
import fc from "fast-check";
import { HOSTILE_KEYS, hostileJson, hostileString, hugeString, RAW_FRAGMENTS } from "./adversarialValues.js";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A body shown in a counterexample: its origin and its first characters (bodies can be 300 KB). */
function shown(body: RecordBody): RecordBody {
  return Object.assign(body, {
    [fc.toStringMethod]: () =>
      `${body.origin}${body.mustReject ? ` (must reject: ${body.mustReject})` : ""}: ${JSON.stringify(body.body.slice(0, 300))}${body.body.length > 300 ? ` … (${body.body.length} chars)` : ""}`,
  });
}

/** One generated body, with what the decide function must do with it when that is known. */
export interface RecordBody {
  body: string;
  /** How it was made (shown in a counterexample). */
  origin: string;
  /** Set when the body can only be rejected, never become an item. */
  mustReject?: string;
}

/** Valid bodies of the shipped policies (work items and one mapped event) the mutations start from. */
export const SEED_BODIES: readonly Json[] = [
  {
    id: "TCK-1",
    policy: "ticket-routing",
    state: { subject: "Where is my package?", body: "It has not arrived.", channel: "email" },
    facts: { customer_tier: "pro", channel: "email" },
    submitted_at: "2026-03-01T08:00:00Z",
  },
  {
    id: "DOC-1",
    policy: "batch-classification",
    state: "INVOICE No. 2026-0877 TOTAL DUE 1,356.60 EUR",
    facts: { source_system: "scanner", batch_id: "B-1" },
  },
  {
    id: "INC-1",
    policy: "incident-priority",
    state: { title: "Checkout errors", description: "5xx above 5%" },
    facts: { service: "payments-api", tags: ["customer-facing"], alert_count: 1 },
  },
  {
    version: "0",
    id: "6513270e-269e-0d37-f2a7-4de452e6b438",
    "detail-type": "Incident Opened",
    source: "acme.monitoring",
    account: "123456789012",
    time: "2026-03-04T00:05:00Z",
    region: "us-east-1",
    resources: [],
    detail: {
      incident_id: "7300",
      title: "Checkout error rate above 5%",
      description: "Alert fired for payments-api.",
      service: "payments-api",
      environment: "production",
      tags: ["customer-facing"],
      alerts: [{ name: "http_5xx_rate", value: 7.2, threshold: 5.0 }],
    },
  },
];

const PLACEHOLDER = "\u0000raw-fragment\u0000";

/** A copy of `value` with the node reached by `steps` (indices into keys or items) replaced. */
function replaceAt(value: Json, steps: readonly number[], replacement: Json): Json {
  const [step, ...rest] = steps;
  if (step === undefined || value === null || typeof value !== "object") return replacement;
  if (Array.isArray(value)) {
    if (value.length === 0) return replacement;
    const index = step % value.length;
    return value.map((item, i) => (i === index ? replaceAt(item, rest, replacement) : item));
  }
  const keys = Object.keys(value);
  if (keys.length === 0) return replacement;
  const key = keys[step % keys.length] ?? "";
  return { ...value, [key]: replaceAt(value[key] ?? null, rest, replacement) };
}

const seed = fc.constantFrom(...SEED_BODIES);
const steps = fc.array(fc.nat(), { maxLength: 5 });

/** Seeds with one node replaced by any hostile JSON value or huge text. */
const replacedNode = fc.record({ base: seed, steps, replacement: fc.oneof(hostileJson(), hugeString()) }).map(
  ({ base, steps: path, replacement }): RecordBody => ({
    body: JSON.stringify(replaceAt(base, path, replacement as Json)),
    origin: `replaced node at ${JSON.stringify(path)}`,
  }),
);

/** Seeds with a raw fragment (deep nesting, 1e400, lone surrogate, duplicate keys, not JSON) spliced in. */
const splicedFragment = fc
  .record({ base: seed, steps, fragment: fc.constantFrom(...RAW_FRAGMENTS) })
  .map(({ base, steps: path, fragment }): RecordBody => {
    const text = JSON.stringify(replaceAt(base, path, PLACEHOLDER)).replace(
      JSON.stringify(PLACEHOLDER),
      fragment,
    );
    return {
      body: text,
      origin: `fragment ${JSON.stringify(fragment.slice(0, 40))} at ${JSON.stringify(path)}`,
    };
  });

/** Seeds with an extra key (prototype keys, chat-control, duplicates of real fields) at some object. */
const addedKey = fc
  .record({
    base: seed,
    steps,
    key: fc.oneof(fc.constantFrom(...HOSTILE_KEYS), hostileString(12)),
    value: hostileJson(2),
  })
  .map(({ base, steps: path, key, value }): RecordBody => {
    // Spliced as text so that a key the object already has is sent twice, as a producer could.
    const member = `${JSON.stringify(key)}: ${JSON.stringify(value ?? null)}`;
    const text = JSON.stringify(replaceAt(base, path, PLACEHOLDER));
    const at = text.lastIndexOf("{", text.indexOf(JSON.stringify(PLACEHOLDER)));
    const spliced =
      at < 0
        ? text.replace(JSON.stringify(PLACEHOLDER), JSON.stringify(null))
        : `${text.slice(0, at + 1)}${member}, ${text.slice(at + 1)}`.replace(
            JSON.stringify(PLACEHOLDER),
            "null",
          );
    return { body: spliced, origin: `added key ${JSON.stringify(key)} at ${JSON.stringify(path)}` };
  });

/** Messages that can only be rejected, each with the reason it must be. */
const poison = fc.oneof(
  fc.string({ unit: "binary", maxLength: 60 }).map(
    (text): RecordBody => ({
      body: `{${text}`,
      origin: "unterminated object",
      mustReject: "not JSON",
    }),
  ),
  fc.constantFrom(...SEED_BODIES.slice(0, 3)).chain((base) =>
    fc.oneof(
      hostileString(30).map(
        (name): RecordBody => ({
          body: JSON.stringify({ ...(base as object), policy: `no-such-policy-${name}` }),
          origin: "unknown policy",
          mustReject: "unknown policy",
        }),
      ),
      fc.constantFrom<Json>(42, true, null, [], {}, "").map(
        (value): RecordBody => ({
          body: JSON.stringify({ ...(base as object), id: value }),
          origin: `id ${JSON.stringify(value)}`,
          mustReject: "wrong type",
        }),
      ),
      fc.constantFrom<Json>(42, false, null, "").map(
        (value): RecordBody => ({
          body: JSON.stringify({ ...(base as object), state: value }),
          origin: `state ${JSON.stringify(value)}`,
          mustReject: "wrong type",
        }),
      ),
      fc.constant<RecordBody>({
        body: JSON.stringify(base).replace(/^\{/, '{"id": "twice", '),
        origin: "duplicate id key",
        mustReject: "duplicate key",
      }),
      fc.constantFrom(65, 1000).map(
        (depth): RecordBody => ({
          body: JSON.stringify(replaceAt(base, [2], PLACEHOLDER)).replace(
            JSON.stringify(PLACEHOLDER),
            `${"[".repeat(depth)}${"]".repeat(depth)}`,
          ),
          origin: `state nested ${depth} deep`,
          mustReject: "too deep",
        }),
      ),
    ),
  ),
);

/**
 * Every kind of body: arbitrary bytes as text, arbitrary JSON, the seeds mutated, poison.
 * Bodies are strings (SQS delivers text).
 */
export function recordBodyArbitrary(): fc.Arbitrary<RecordBody> {
  return fc
    .oneof(
      fc.string({ unit: "binary", maxLength: 200 }).map((body): RecordBody => ({ body, origin: "any text" })),
      hostileJson(4).map(
        (value): RecordBody => ({ body: JSON.stringify(value) ?? "null", origin: "any JSON" }),
      ),
      replacedNode,
      splicedFragment,
      addedKey,
      poison,
    )
    .map(shown);
}
