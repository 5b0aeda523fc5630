import type { Logger } from "@aws-lambda-powertools/logger";
import { type Metrics, MetricUnit } from "@aws-lambda-powertools/metrics";
import { DRIFT_METRICS } from "../../contract/metrics/driftMetrics.js";
import type { PolicyDriftReport } from "../../contract/outcome/driftReport.js";

/**
 * Publishes a check's distances ({@link DRIFT_METRICS}): `AnswerDrift` per policy and question and
 * `PolicyDrift` (the largest) per policy, each as its own EMF document (its own dimensions), for
 * the questions with enough answers on both sides only: a quiet hour publishes nothing rather
 * than a distance made of noise (the alarm treats missing data as not breaching). Logs each
 * policy's summary, and a warning naming the questions over the threshold and the options that moved.
 */
export function emitDriftMetrics(
  reports: readonly PolicyDriftReport[],
  metrics: Metrics,
  logger: Logger,
): void {
  for (const report of reports) {
    for (const question of report.questions) {
      if (!question.enough || question.distance === null) continue;
      const single = metrics.singleMetric();
      single.addDimensions({
        [DRIFT_METRICS.policyDimension]: report.policy,
        [DRIFT_METRICS.questionDimension]: question.question,
      });
      single.addMetric(DRIFT_METRICS.questionDistance, MetricUnit.NoUnit, question.distance);
    }
    if (report.distance !== null) {
      const single = metrics.singleMetric();
      single.addDimension(DRIFT_METRICS.policyDimension, report.policy);
      single.addMetric(DRIFT_METRICS.policyDistance, MetricUnit.NoUnit, report.distance);
    }
    const summary = {
      policy: report.policy,
      window: report.window,
      distance: report.distance,
      outcomes: report.outcomes,
      questions: report.questions.map((question) => ({
        question: question.question,
        distance: question.distance,
        counts: question.counts,
        enough: question.enough,
      })),
    };
    if (report.over_threshold) {
      logger.warn("drift over the threshold", {
        ...summary,
        threshold: report.threshold,
        over: report.questions
          .filter((question) => question.over_threshold)
          .map((question) => ({
            question: question.question,
            distance: question.distance,
            moved: question.moved,
          })),
      });
    } else {
      logger.info("drift checked", summary);
    }
  }
}
