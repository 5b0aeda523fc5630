import { systemOneToBatch } from "../../adapter/engine/systemOne/SystemOne.js";
import type {
  DecisionBatch,
  DecisionEngine,
  DecisionQuestion,
  DecisionState,
} from "../../adapter/engine/types.js";
import { type JevBenchCase, jevBenchToSystemOne } from "../../evaluation/jevbench/loadJevBench.js";

/** A JevBench case as the engine's batch (one question, id `q`). */
export function caseToBatch(testCase: JevBenchCase): DecisionBatch {
  return systemOneToBatch(jevBenchToSystemOne(testCase));
}

/** The one question of a JevBench case, renamed. */
export function caseQuestion(testCase: JevBenchCase, id: string): DecisionQuestion {
  const [question] = caseToBatch(testCase).questions;
  if (question === undefined) throw new Error(`JevBench case ${testCase.id} has no scorable question`);
  return { ...question, id };
}

/**
 * `count` questions from distinct JevBench families (the first case of each family, then more),
 * to ask about one shared state.
 */
export function distinctQuestions(cases: readonly JevBenchCase[], count: number): DecisionQuestion[] {
  const byFamily = new Map<string, JevBenchCase[]>();
  for (const testCase of cases) {
    const list = byFamily.get(testCase.family) ?? [];
    list.push(testCase);
    byFamily.set(testCase.family, list);
  }
  const picked: JevBenchCase[] = [];
  for (let round = 0; picked.length < count; round += 1) {
    let added = false;
    for (const list of byFamily.values()) {
      const next = list[round];
      if (next !== undefined && picked.length < count) {
        picked.push(next);
        added = true;
      }
    }
    if (!added) break;
  }
  return picked.map((testCase, index) => caseQuestion(testCase, `q${index + 1}`));
}

/**
 * A text state whose prompt prefix (preamble + state) is close to `tokens` tokens for this engine,
 * cut from `source` at a word boundary (binary search on the character length).
 */
export function stateOfTokens(
  engine: DecisionEngine,
  source: string,
  tokens: number,
  question: DecisionQuestion,
): string {
  const prefixTokens = (text: string): number => statePrefixTokens(engine, text, question);
  let text = source;
  while (prefixTokens(text) < tokens) text = `${text}\n\n${source}`;
  let low = 0;
  let high = text.length;
  while (high - low > 8) {
    const middle = Math.floor((low + high) / 2);
    if (prefixTokens(text.slice(0, middle)) < tokens) low = middle;
    else high = middle;
  }
  const cut = text.slice(0, high);
  const space = cut.lastIndexOf(" ");
  return space > high - 40 ? cut.slice(0, space) : cut;
}

/** Cases of the public split picked evenly across their files, `count` of them (all when count ≥ 231). */
export function spreadCases(cases: readonly JevBenchCase[], count: number): JevBenchCase[] {
  if (count >= cases.length) return [...cases];
  const step = cases.length / count;
  return Array.from({ length: count }, (_, index) => cases[Math.floor(index * step)] as JevBenchCase);
}

/** Tokens of the preamble and the state: the part of a prompt that questions on one state share. */
export function statePrefixTokens(
  engine: DecisionEngine,
  state: DecisionState,
  question: DecisionQuestion,
): number {
  // With two copies of one question, batch = shared + 2·(prompt − shared), so shared = 2·prompt − batch.
  const twin = { ...question, id: `${question.id}-twin` };
  const measure = engine.measure({ state, questions: [question, twin] });
  return 2 * (measure.questionTokens[0] ?? 0) - measure.batchTokens;
}
