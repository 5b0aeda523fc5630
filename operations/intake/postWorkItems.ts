import { createHash } from "node:crypto";
import { Webhook } from "standardwebhooks";
import {
  AcceptedAnswerSchema,
  type IntakeErrorAnswer,
  IntakeErrorAnswerSchema,
  MAX_INTAKE_BODY_BYTES,
  MAX_INTAKE_ITEMS,
} from "../../contract/intake/index.js";
import type { MessageEntry } from "../queue/types.js";

/** How one item ended at the front door. */
export type PostedItem =
  | { line: number; id?: string; ok: true; lane: string; messageId: string; replayed: boolean }
  | { line: number; id?: string; ok: false; status: number; reason: string; message: string };

/** Options of {@link postWorkItems}. */
export interface PostWorkItemsOptions {
  /** The front door's webhook route (`decisions up`'s `submit_url`). */
  url: string;
  /** The senders' secret (`whsec_…`). */
  secret: string;
  /** The caller's API Gateway API key, sent as `x-api-key` (the deployed front door needs one). Default none (`decisions up`). */
  apiKey?: string;
  /** Attempts per request for 409, 429, 5xx and network errors. Default 5. */
  maxAttempts?: number;
  /** Waits between attempts. Default a timer. */
  sleep?: (ms: number) => Promise<void>;
  /** The HTTP client. Default `fetch`. */
  fetch?: typeof fetch;
}

/** Room for `{"items": [` and the commas around the items' texts. */
const ENVELOPE_BYTES = 64;

/**
 * Posts work items to the front door as a webhook sender: batches `{"items": [...]}` of at most
 * {@link MAX_INTAKE_ITEMS} items and {@link MAX_INTAKE_BODY_BYTES} bytes, each item's text as
 * written, each request signed the Standard Webhooks way with a `webhook-id` derived from its body
 * (the same batch sent again is the same message: the front door gives its first answer). A batch
 * the front door refuses for some items (400 naming them, 404 naming an unknown policy) is sent
 * again without them, so one bad line does not hold back the rest; 409, 429, 5xx and network
 * errors are retried with backoff (honouring Retry-After), re-signed with the current time.
 *
 * @returns one result per item, in file order.
 */
export async function postWorkItems(
  items: readonly MessageEntry[],
  options: PostWorkItemsOptions,
): Promise<PostedItem[]> {
  const results = new Map<MessageEntry, PostedItem>();
  for (const batch of batchesOf(items)) {
    let pending = batch;
    while (pending.length > 0) {
      const answer = await postSigned(pending, options);
      if (answer.status === 202) {
        const accepted = AcceptedAnswerSchema.parse(answer.body).accepted;
        for (const entry of accepted) {
          const item = pending[entry.index];
          if (item === undefined) continue;
          results.set(item, {
            line: item.line,
            ...(item.id === undefined ? {} : { id: item.id }),
            ok: true,
            lane: entry.lane,
            messageId: entry.message_id,
            replayed: answer.replayed,
          });
        }
        break;
      }
      const refusal = IntakeErrorAnswerSchema.safeParse(answer.body);
      const error: IntakeErrorAnswer = refusal.success
        ? refusal.data
        : { error: `HTTP ${answer.status}`, reason: "unexpected_answer" };
      const refused = refusedItems(pending, answer.status, error);
      if (refused.size === 0 || refused.size === pending.length) {
        for (const item of pending)
          results.set(item, failureOf(item, answer.status, error, refused.get(item)));
        break;
      }
      for (const [item, message] of refused)
        results.set(item, failureOf(item, answer.status, error, message));
      pending = pending.filter((item) => !refused.has(item));
    }
  }
  return items.map(
    (item) => results.get(item) ?? failureOf(item, 0, { error: "not sent", reason: "not_sent" }, undefined),
  );
}

/** The items a 400 or 404 names, each with what was wrong with it. */
function refusedItems(
  pending: readonly MessageEntry[],
  status: number,
  error: IntakeErrorAnswer,
): Map<MessageEntry, string> {
  const refused = new Map<MessageEntry, string>();
  if (status === 400) {
    for (const problem of error.problems ?? []) {
      const item = pending[problem.index];
      if (item === undefined || problem.field === "(body)") continue;
      const before = refused.get(item);
      const said = `${problem.field}: ${problem.rule}`;
      refused.set(item, before === undefined ? said : `${before}; ${said}`);
    }
  }
  if (status === 404 && error.known_policies !== undefined) {
    for (const item of pending) {
      const policy = policyOf(item.body);
      if (policy !== undefined && !error.known_policies.includes(policy))
        refused.set(item, `unknown policy "${policy}"; known: ${error.known_policies.join(", ")}`);
    }
  }
  return refused;
}

function failureOf(
  item: MessageEntry,
  status: number,
  error: IntakeErrorAnswer,
  message: string | undefined,
): PostedItem {
  return {
    line: item.line,
    ...(item.id === undefined ? {} : { id: item.id }),
    ok: false,
    status,
    reason: error.reason,
    message: message ?? error.error,
  };
}

/** Batches of at most {@link MAX_INTAKE_ITEMS} items and the body bound, in order. */
function batchesOf(items: readonly MessageEntry[]): MessageEntry[][] {
  const batches: MessageEntry[][] = [];
  let current: MessageEntry[] = [];
  let bytes = ENVELOPE_BYTES;
  for (const item of items) {
    const size = Buffer.byteLength(item.body, "utf8") + 1;
    if (current.length === MAX_INTAKE_ITEMS || (current.length > 0 && bytes + size > MAX_INTAKE_BODY_BYTES)) {
      batches.push(current);
      current = [];
      bytes = ENVELOPE_BYTES;
    }
    current.push(item);
    bytes += size;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

/** One batch posted, signed, retried while the answer says it may succeed later. */
async function postSigned(
  batch: readonly MessageEntry[],
  options: PostWorkItemsOptions,
): Promise<{ status: number; body: unknown; replayed: boolean }> {
  const body = `{"items": [${batch.map((item) => item.body).join(", ")}]}`;
  const id = `msg_${createHash("sha256").update(body).digest("hex").slice(0, 32)}`;
  const webhook = new Webhook(options.secret);
  const send = options.fetch ?? fetch;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const maxAttempts = options.maxAttempts ?? 5;
  for (let attempt = 1; ; attempt += 1) {
    const now = new Date();
    let answer: Response;
    try {
      answer = await send(options.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "webhook-id": id,
          "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
          "webhook-signature": webhook.sign(id, now, body),
          ...(options.apiKey === undefined ? {} : { "x-api-key": options.apiKey }),
        },
        body,
      });
    } catch (error) {
      if (attempt >= maxAttempts)
        return {
          status: 0,
          body: {
            error: `${options.url} could not be reached: ${(error as Error).message}`,
            reason: "unreachable",
          },
          replayed: false,
        };
      await sleep(backoffMs(attempt, undefined));
      continue;
    }
    const parsed: unknown = await answer
      .json()
      .catch(() => ({ error: `HTTP ${answer.status} without a JSON body`, reason: "unexpected_answer" }));
    const retryable = answer.status === 409 || answer.status === 429 || answer.status >= 500;
    if (!retryable || attempt >= maxAttempts)
      return {
        status: answer.status,
        body: parsed,
        replayed: answer.headers.get("idempotent-replayed") === "true",
      };
    await sleep(backoffMs(attempt, answer.headers.get("retry-after")));
  }
}

/** Capped exponential backoff with full jitter, at least the Retry-After the answer asked for. */
function backoffMs(attempt: number, retryAfter: string | null | undefined): number {
  const asked = Number(retryAfter) * 1000;
  const jitter = Math.floor(Math.random() * Math.min(5000, 200 * 2 ** (attempt - 1)));
  return Number.isFinite(asked) && asked > 0 ? Math.max(asked, jitter) : jitter;
}

function policyOf(body: string): string | undefined {
  try {
    const policy = (JSON.parse(body) as { policy?: unknown }).policy;
    return typeof policy === "string" ? policy : undefined;
  } catch (error) {
    if (error instanceof SyntaxError) return undefined;
    throw error;
  }
}
