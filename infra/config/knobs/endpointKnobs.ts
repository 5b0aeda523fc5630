import {
  ADAPTER_DEADLINE_MARGIN_SECONDS,
  MAX_ADAPTER_DEADLINE_SECONDS,
  SAGEMAKER_INVOCATION_TIMEOUT_SECONDS,
  SERVER_SETTING_ENTRIES,
  variableOf,
} from "../../../contract/index.js";
import {
  boolean,
  instanceType,
  instanceTypes,
  integer,
  type KnobRule,
  kit,
  kmsKeyArn,
  oneOf,
  s3ModelUrl,
  setsVariable,
  text,
} from "./knobParsers.js";

/** The stack's name and the decision endpoint: its model, instance types and pools, timeouts, and what the adapter on each instance runs and admits. */
export const ENDPOINT_KNOBS: readonly KnobRule[] = [
  {
    name: "stackName",
    defaultValue: "Decisions",
    description: "name of the CloudFormation stack",
    parse: text(/^[A-Za-z][A-Za-z0-9-]{0,127}$/, "a CloudFormation stack name"),
  },
  {
    name: "accelerator",
    defaultValue: "cpu",
    description:
      "`cpu`: the decision endpoint runs the CPU image on `cpuInstanceType`; `gpu`: the CUDA image on the `gpuInstancePools`",
    parse: oneOf("cpu", "gpu"),
  },
  {
    name: "modelDataUrl",
    defaultValue: "s3://decisions-models-{account}-{region}/model.tar.gz",
    description:
      "the `model.tar.gz` of `decisions models package` in S3 (with `modelDataCompression=none`: the S3 prefix, ending in `/`, holding the unpacked files); `{account}` and `{region}` are replaced by the deploying account and region",
    parse: s3ModelUrl,
  },
  {
    name: "modelDataCompression",
    defaultValue: "gzip",
    description:
      "`gzip`: `modelDataUrl` is a model.tar.gz, unpacked at every instance start; `none`: an S3 prefix whose files SageMaker copies as they are (no unpacking of a multi-GB GGUF)",
    parse: oneOf("gzip", "none"),
  },
  {
    name: "modelKmsKeyArn",
    defaultValue: "",
    description:
      "the KMS key the model bucket is encrypted with (SSE-KMS): the SageMaker role may decrypt with this key only, through S3; empty for SSE-S3",
    parse: kmsKeyArn,
  },
  {
    name: "cpuInstanceType",
    defaultValue: "ml.c6i.8xlarge",
    description: "instance type of the CPU endpoint, and of the last (CPU) pool with `accelerator=gpu`",
    parse: instanceType,
  },
  {
    name: "gpuInstancePools",
    defaultValue: ["ml.g6e.xlarge", "ml.g6.xlarge", "ml.g5.xlarge"],
    description:
      "GPU instance types in the order SageMaker tries them when capacity is short (priority 1 first); at most 5 pools in all",
    parse: instanceTypes,
  },
  {
    name: "cpuFallbackPool",
    defaultValue: true,
    description:
      "with `accelerator=gpu`, add `cpuInstanceType` as the last pool, running the CPU image (`modelNameOverride`), so the endpoint comes up when no GPU capacity exists",
    parse: boolean,
  },
  {
    name: "instanceProvisionTimeoutSeconds",
    defaultValue: 1800,
    description:
      "how long SageMaker may take to provision the variant's instances, in total across all pools (it moves to the next pool when one has no capacity, not on a quota error); SageMaker allows 300–3600",
    parse: integer(300, 3600),
  },
  {
    name: "containerStartupTimeoutSeconds",
    defaultValue: 1800,
    description: "time for the container to answer `/ping` after start (loading a multi-GB GGUF)",
    parse: integer(60, 3600),
  },
  {
    name: "modelDownloadTimeoutSeconds",
    defaultValue: 1800,
    description: "time to download and unpack the model.tar.gz onto an instance",
    parse: integer(60, 3600),
  },
  {
    name: "cpuThreads",
    defaultValue: "auto",
    description:
      "`SEMIF_THREADS` of the adapter (llama.cpp threads); `auto`: the instance's available parallelism",
    variable: variableOf(SERVER_SETTING_ENTRIES.threads),
    setting: SERVER_SETTING_ENTRIES.threads,
    parse: (value) => (value === "auto" ? "auto" : kit(SERVER_SETTING_ENTRIES.threads.schema)(value)),
  },
  setsVariable(
    "gpuLayers",
    SERVER_SETTING_ENTRIES.gpuLayers,
    "`SEMIF_GPU_LAYERS` of the GPU model: -1 all layers on the GPU, N that many (the CPU model always runs 0)",
    -1,
  ),
  setsVariable(
    "contextSize",
    SERVER_SETTING_ENTRIES.contextSize,
    "`SEMIF_CONTEXT_SIZE` of the adapter: no prompt may be longer, in tokens",
  ),
  {
    name: "gpuRequestsPerInstance",
    defaultValue: 9,
    description:
      "requests one GPU instance admits at once: 1 running (`SEMIF_MAX_IN_FLIGHT=1`) plus `SEMIF_QUEUE_DEPTH` = this − 1 waiting (GPU p95 ~0.6 s per decision)",
    parse: integer(1, 10_000),
  },
  {
    name: "cpuRequestsPerInstance",
    defaultValue: 4,
    description:
      "requests one CPU instance admits at once (the CPU endpoint, and the CPU fallback pool): 2 places for each lane at the defaults (`interactiveReservePerInstance` 2 for interactive, 4 − 2 for bulk; each lane's event source runs at least 2 invocations). With a CPU p95 of ~19 s per decision an interactive call, served first, waits at most for the call running and the one other interactive call (~57 s at p95, past the 55 s deadline: a call still waiting for its slot then is answered 503, busy, and re-queued)",
    parse: integer(1, 10_000),
  },
  setsVariable(
    "interactiveReservePerInstance",
    SERVER_SETTING_ENTRIES.interactiveReserve,
    "`SEMIF_INTERACTIVE_RESERVE` of the adapter: waiting places per instance only interactive calls may take; the interactive lane's decide function is sized to `minInstances` × this, the bulk lane's to the rest of what minimum capacity admits",
    2,
  ),
  {
    name: "gpuRequestTimeoutSeconds",
    defaultValue: 30,
    description: `\`SEMIF_REQUEST_TIMEOUT_MS\` of the GPU image: a request still unanswered then gets 504; at most ${MAX_ADAPTER_DEADLINE_SECONDS} (SageMaker's ${SAGEMAKER_INVOCATION_TIMEOUT_SECONDS} s invocation limit less a ${ADAPTER_DEADLINE_MARGIN_SECONDS} s margin for its own hop)`,
    parse: integer(1, MAX_ADAPTER_DEADLINE_SECONDS),
  },
  {
    name: "cpuRequestTimeoutSeconds",
    defaultValue: MAX_ADAPTER_DEADLINE_SECONDS,
    description: `\`SEMIF_REQUEST_TIMEOUT_MS\` of the CPU image; at most ${MAX_ADAPTER_DEADLINE_SECONDS}: SageMaker's own ${SAGEMAKER_INVOCATION_TIMEOUT_SECONDS} s invocation limit starts first, and past it the caller gets SageMaker's timeout instead of the adapter's 504, so the deadline keeps a ${ADAPTER_DEADLINE_MARGIN_SECONDS} s margin below it`,
    parse: integer(1, MAX_ADAPTER_DEADLINE_SECONDS),
  },
];
