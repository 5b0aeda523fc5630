import {
  type ChatRequest,
  chatRequestSchema,
  problemsOf,
  type RequestSchemaOptions,
  type SemIfDecision,
  semIfRequestSchemas,
  systemOneRequestSchema,
} from "../../contract/wire/index.js";
import { findReservedToken } from "../../contract/wire/reservedText.js";
import type { DecisionQuestion } from "../engine/types.js";
import { formatFieldPath } from "./fieldPath.js";
import type { Invocation, InvocationKind, Problem, RequestLimits, Validation } from "./types.js";

type Schemas = ReturnType<typeof buildSchemas>;

const schemasByLimits = new WeakMap<RequestLimits, Schemas>();

function buildSchemas(limits: RequestLimits) {
  const options: RequestSchemaOptions = {
    maxOptions: limits.maxOptions,
    maxOptionsReason: "the size of this model's verified label alphabet and the configured limit",
    maxQuestions: limits.maxQuestions,
    maxCompletionTokens: limits.maxCompletionTokens,
    findReservedText: findReservedToken,
  };
  return {
    semIf: semIfRequestSchemas(options),
    systemOne: systemOneRequestSchema(options),
    chat: chatRequestSchema(options),
  };
}

/**
 * Validates a parsed request body of wire format `kind` against the wire module's zod schemas,
 * built once per `limits` with the adapter's reserved chat-control texts. Every problem is
 * reported, each naming its field in the caller's terms (`decision.options[2].id: duplicate
 * option id "billing" (first at decision.options[0].id)`).
 *
 * The states of the result are the parsed values; the server swaps in the request's own text
 * for them (see `adoptTextStates`), so they render as Python would render them.
 */
export function validateRequest<Kind extends InvocationKind>(
  kind: Kind,
  body: unknown,
  limits: RequestLimits,
): Validation<Extract<Invocation, { kind: Kind }>>;
export function validateRequest(
  kind: InvocationKind,
  body: unknown,
  limits: RequestLimits,
): Validation<Invocation> {
  let schemas = schemasByLimits.get(limits);
  if (schemas === undefined) {
    schemas = buildSchemas(limits);
    schemasByLimits.set(limits, schemas);
  }
  switch (kind) {
    case "semif":
      return validateSemIf(schemas, body);
    case "systemone": {
      const parsed = schemas.systemOne.safeParse(body);
      if (!parsed.success) return refused(parsed.error.issues);
      const { model, state, questions } = parsed.data;
      return {
        ok: true,
        value: {
          kind: "systemone",
          request: model === undefined ? { state, questions } : { model, state, questions },
        },
      };
    }
    case "chat": {
      const parsed = schemas.chat.safeParse(body);
      if (!parsed.success) return refused(parsed.error.issues);
      return { ok: true, value: chatInvocation(parsed.data) };
    }
  }
}

function validateSemIf(schemas: Schemas, body: unknown): Validation<Invocation> {
  // Which of the two shapes is decided here, so its problems are reported rather than a union's.
  const fields = typeof body === "object" && body !== null ? (body as Record<string, unknown>) : {};
  const single = fields.decision !== undefined;
  if (
    single === (fields.decisions !== undefined) &&
    typeof body === "object" &&
    body !== null &&
    !Array.isArray(body)
  ) {
    return {
      ok: false,
      problems: [{ field: "body", message: "must hold exactly one of decision or decisions" }],
    };
  }
  if (single) {
    const parsed = schemas.semIf.single.safeParse(body);
    if (!parsed.success) return refused(parsed.error.issues);
    const { decision } = parsed.data;
    return {
      ok: true,
      value: {
        kind: "semif",
        shape: "single",
        batch: { state: decision.state, questions: [questionOf(decision)] },
      },
    };
  }
  const parsed = schemas.semIf.shared.safeParse(body);
  if (!parsed.success) return refused(parsed.error.issues);
  const { decisions } = parsed.data;
  const state = decisions[0]?.state ?? "";
  return {
    ok: true,
    value: { kind: "semif", shape: "shared", batch: { state, questions: decisions.map(questionOf) } },
  };
}

function questionOf(decision: SemIfDecision): DecisionQuestion {
  const question: DecisionQuestion = {
    id: decision.id,
    question: decision.question,
    options: decision.options.map(({ id, description }) => ({ id, description })),
  };
  if (decision.temperature !== undefined) question.temperature = decision.temperature;
  if (decision.layout !== undefined) question.layout = decision.layout;
  if (decision.debias !== undefined) question.debias = decision.debias;
  if (decision.debias_rotations !== undefined) question.debiasRotations = decision.debias_rotations;
  return question;
}

function chatInvocation(request: ChatRequest): Invocation {
  const invocation: Invocation = {
    kind: "chat",
    request: { messages: request.messages.map(({ role, content }) => ({ role, content })) },
    model: request.model ?? undefined,
  };
  if (typeof request.max_tokens === "number") invocation.request.maxTokens = request.max_tokens;
  if (typeof request.temperature === "number") invocation.request.temperature = request.temperature;
  return invocation;
}

function refused(issues: Parameters<typeof problemsOf>[0]): { ok: false; problems: Problem[] } {
  return {
    ok: false,
    problems: problemsOf(issues, formatFieldPath).map(({ path, message }) => ({
      field: formatFieldPath(path),
      message,
    })),
  };
}
