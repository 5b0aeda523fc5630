import { JOB_RESULTS_PREFIX } from "../../contract/index.js";
import { capacityProblems } from "./capacityProblems.js";
import type { InfraConfigProblem } from "./errors.js";
import type { InfraSettings } from "./InfraSettings.js";
import { ingestMatchesResults } from "./ingestMatchesResults.js";

/** Most instance pools a production variant may have (priorities 1–5). */
const MAX_POOLS = 5;

/**
 * SQS deletes a message older than the queue's `MessageRetentionPeriod`
 * (https://docs.aws.amazon.com/AWSSimpleQueueService/latest/APIReference/API_SetQueueAttributes.html):
 * an age alarm must come before that.
 */
const SECONDS_PER_DAY = 86_400;

/**
 * The checks across knobs, on the settings after the profile: each problem names the knob to change
 * and says what to give it.
 */
export function crossChecks(settings: InfraSettings): InfraConfigProblem[] {
  const problems: InfraConfigProblem[] = [];
  const unpacked = settings.modelDataUrl.endsWith("/");
  if (unpacked !== (settings.modelDataCompression === "none")) {
    problems.push({
      knob: "modelDataUrl",
      message:
        settings.modelDataCompression === "none"
          ? `with modelDataCompression=none it must be an S3 prefix ending in / (the unpacked model files), got ${settings.modelDataUrl}`
          : `ends in / (an S3 prefix of unpacked files): set modelDataCompression=none, or give the model.tar.gz, got ${settings.modelDataUrl}`,
    });
  }
  if (settings.profile === "production" && settings.outcomesRemovalPolicy !== "retain") {
    problems.push({
      knob: "outcomesRemovalPolicy",
      message: "must be retain with profile=production (the outcomes are the pipeline's record)",
    });
  }
  if (
    settings.layout === "lanes-from-zero" &&
    settings.accelerator === "gpu" &&
    (settings.gpuInstancePools.length > 1 || settings.cpuFallbackPool)
  ) {
    problems.push({
      knob: "layout",
      message: `lanes-from-zero runs its inference components on one instance type: give gpuInstancePools one type and cpuFallbackPool=false (got ${settings.gpuInstancePools.join(", ")}${settings.cpuFallbackPool ? " and the CPU fallback pool" : ""}), or deploy with layout=shared`,
    });
  }
  if (settings.layout === "shared" && settings.minInstances < 1) {
    problems.push({
      knob: "minInstances",
      message:
        "must be at least 1 with layout=shared (a production variant keeps at least one instance; only inference components scale to zero: layout=lanes-from-zero)",
    });
  }
  if (settings.maxInstances < settings.minInstances) {
    problems.push({
      knob: "maxInstances",
      message: `must be at least minInstances (${settings.minInstances}), got ${settings.maxInstances}`,
    });
  }
  if (settings.batchSize > 10 && settings.batchingWindowSeconds < 1) {
    problems.push({
      knob: "batchSize",
      message: `more than 10 messages per batch needs batchingWindowSeconds ≥ 1 (SQS event sources), got batchSize ${settings.batchSize} with a window of 0`,
    });
  }
  const pools = settings.gpuInstancePools.length + (settings.cpuFallbackPool ? 1 : 0);
  if (settings.accelerator === "gpu" && pools > MAX_POOLS) {
    problems.push({
      knob: "gpuInstancePools",
      message: `a variant has at most ${MAX_POOLS} instance pools; ${settings.gpuInstancePools.length} GPU pools${settings.cpuFallbackPool ? " plus the CPU fallback pool" : ""} make ${pools}`,
    });
  }
  problems.push(...capacityProblems(settings));
  if (settings.bulkOldestMessageAlarmSeconds >= settings.queueRetentionDays * SECONDS_PER_DAY) {
    problems.push({
      knob: "bulkOldestMessageAlarmSeconds",
      message: `must be below the queues' retention (queueRetentionDays ${settings.queueRetentionDays} = ${settings.queueRetentionDays * SECONDS_PER_DAY} s): SQS deletes older messages, so the alarm would come after the loss, got ${settings.bulkOldestMessageAlarmSeconds}`,
    });
  }
  const loop = ingestMatchesResults(settings.ingestPrefix, settings.ingestSuffix);
  if (loop !== undefined) {
    problems.push({
      knob: "ingestPrefix",
      message: `with ingestPrefix ${JSON.stringify(settings.ingestPrefix)} and ingestSuffix ${JSON.stringify(settings.ingestSuffix)} the ingest rule would match the results writer's objects (e.g. ${loop}), so every job's results would be ingested as a new job, again and again; give an ingestPrefix outside ${JOB_RESULTS_PREFIX} (e.g. incoming/) or an ingestSuffix that results.jsonl and manifest.json do not end with`,
    });
  }
  if ((settings.standardHfRepo === "") !== (settings.standardHfFile === "")) {
    problems.push({
      knob: settings.standardHfRepo === "" ? "standardHfRepo" : "standardHfFile",
      message:
        "standardHfRepo and standardHfFile go together: give both (the repository and its .gguf file) or neither",
    });
  }
  if (settings.standardHfRepo !== "" && settings.standardModelDataUrl !== "") {
    problems.push({
      knob: "standardModelDataUrl",
      message:
        "names S3 model data while standardHfRepo names a hub repository: the standard endpoint loads one of them; leave standardModelDataUrl empty or standardHfRepo and standardHfFile empty",
    });
  }
  if (settings.standardEndpoint && settings.standardImage === undefined) {
    problems.push({
      knob: "standardImage",
      message:
        "is required with standardEndpoint=true: the AWS llama.cpp SageMaker image pinned by digest, 763104351884.dkr.ecr.<region>.amazonaws.com/llama-cpp@sha256:<digest>",
    });
  }
  return problems;
}
