/**
 * What `decisions shadow report` and `decisions compare` read: a policy's shadow records with the
 * live outcome of each shadowed item, or two results files of `decisions classify`, as decisions
 * keyed by item (live outcomes as the pipeline decided them, people's answers as labels). The
 * comparison itself is `evaluation/comparison`'s.
 */
export { asDecided, type DecidedItem, type DecidedWithLabels, shadowDecision } from "./asDecided.js";
export { CompareInputError } from "./errors.js";
export { type ResultsDecisions, readResultsDecisions } from "./readResultsDecisions.js";
export {
  type ReadShadowComparisonOptions,
  readShadowComparison,
  type ShadowComparisonInput,
} from "./readShadowComparison.js";
