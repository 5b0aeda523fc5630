import type { Policy, PolicyShadow } from "./Policy.js";
import { PolicySections } from "./policySchema.js";
import type { ReportProblem } from "./types.js";

/** How a policy document is compiled (`compilePolicy`, passed in so the two files do not import each other). */
export type CompileDocument = (
  document: unknown,
  meta: { file: string; sha256: string },
  report: ReportProblem,
) => Policy | undefined;

/**
 * Compiles a policy document's `shadow` section: the candidate version is the document itself
 * with the section's overrides (thresholds and temperatures per question, the rule list replaced,
 * the version label), compiled as any policy is. Problems of the overrides are reported at their
 * place in the section (`shadow.thresholds.<id>`, `shadow.rules.<n>.when`); the live document's
 * own problems are left to its own compilation.
 *
 * @returns `{}` without a section, `{ shadow }` with one, `undefined` when the section did not
 *   parse or its candidate does not compile (problems reported).
 */
export function compileShadow(
  fields: Readonly<Record<string, unknown>>,
  meta: { file: string; sha256: string },
  report: ReportProblem,
  compile: CompileDocument,
): { shadow?: PolicyShadow } | undefined {
  const parsed = PolicySections.shadow.safeParse(fields.shadow);
  if (!parsed.success) return undefined;
  const section = parsed.data;
  if (section === undefined) return {};
  const questions =
    typeof fields.questions === "object" && fields.questions !== null
      ? (fields.questions as Record<string, unknown>)
      : {};
  let known = true;
  for (const override of ["thresholds", "temperatures"] as const) {
    for (const id of Object.keys(section[override] ?? {})) {
      if (Object.hasOwn(questions, id)) continue;
      report(["shadow", override, id], `question "${id}" is not asked by this policy`, { key: true });
      known = false;
    }
  }
  const candidateQuestions = Object.fromEntries(
    Object.entries(questions).map(([id, question]) => [
      id,
      typeof question === "object" && question !== null
        ? {
            ...question,
            ...(section.thresholds?.[id] !== undefined ? { threshold: section.thresholds[id] } : {}),
            ...(section.temperatures?.[id] !== undefined ? { temperature: section.temperatures[id] } : {}),
          }
        : question,
    ]),
  );
  const { shadow: _section, events: _events, ...rest } = fields;
  const document = {
    ...rest,
    questions: candidateQuestions,
    ...(section.rules !== undefined ? { rules: section.rules } : {}),
    ...(section.version !== undefined ? { version: section.version } : {}),
  };
  // Only the candidate's own rules are its problems; the rest is the live document's, reported there.
  const policy = compile(document, meta, (path, message, where) => {
    if (section.rules !== undefined && path[0] === "rules") report(["shadow", ...path], message, where);
  });
  if (policy === undefined || !known) return undefined;
  return {
    shadow: {
      candidate: section.candidate,
      rate: section.rate,
      endpoint: section.endpoint ?? "candidate",
      policy,
    },
  };
}
