import { parsePinnedImage } from "../parsePinnedImage.js";
import { boolean, instanceType, type KnobRule, s3ModelUrl, text } from "./knobParsers.js";

/** The optional endpoints beside the decision endpoint: the standard text-generation endpoint and the shadow step's candidate. */
export const SECOND_ENDPOINT_KNOBS: readonly KnobRule[] = [
  {
    name: "standardEndpoint",
    defaultValue: false,
    description: "also deploy the standard text-generation endpoint (the AWS llama.cpp image, OpenAI chat)",
    parse: boolean,
  },
  {
    name: "standardImage",
    defaultValue: "",
    description:
      "image of the standard endpoint, pinned by digest: `763104351884.dkr.ecr.<region>.amazonaws.com/llama-cpp@sha256:…`; a tag alone is refused",
    parse: (value) => {
      if (value === "") return undefined;
      if (typeof value !== "string")
        throw new Error(`must be an image reference, got ${JSON.stringify(value)}`);
      try {
        return parsePinnedImage(value);
      } catch (error) {
        throw new Error((error as Error).message, { cause: error });
      }
    },
  },
  {
    name: "standardInstanceType",
    defaultValue: "ml.c6i.8xlarge",
    description: "instance type of the standard endpoint",
    parse: instanceType,
  },
  {
    name: "standardModelDataUrl",
    defaultValue: "",
    description: "model.tar.gz of the standard endpoint; empty: the decision endpoint's `modelDataUrl`",
    parse: (value) => (value === "" ? "" : s3ModelUrl(value)),
  },
  {
    name: "standardHfRepo",
    defaultValue: "",
    description:
      "hub repository (`<owner>/<name>`) the standard endpoint's container downloads its GGUF from at every instance start (`SM_LLAMA_CPP_HF_REPO`, with `standardHfFile`), for parity with the llama.cpp image's own hub path; that endpoint then has no S3 model data and runs without network isolation: it needs outbound HTTPS to the hub (SageMaker's own network gives it; a private VPC would need a NAT), and it gets whatever the repository's file is at that start, unpinned. Empty: S3 model data (`standardModelDataUrl`). The decision endpoint always loads S3 model data",
    parse: (value) =>
      value === ""
        ? ""
        : text(
            /^[A-Za-z0-9][A-Za-z0-9._-]*\/[A-Za-z0-9][A-Za-z0-9._-]*$/,
            "<owner>/<name> of a hub repository or empty",
          )(value),
  },
  {
    name: "standardHfFile",
    defaultValue: "",
    description:
      "the GGUF file of `standardHfRepo` the standard endpoint serves (`SM_LLAMA_CPP_HF_FILE`); empty with it",
    parse: (value) =>
      value === ""
        ? ""
        : text(/^[^\s"']+\.gguf$/, "the path of a .gguf file in the repository or empty")(value),
  },
  {
    name: "shadowModelDataUrl",
    defaultValue: "",
    description:
      "the candidate model (`model.tar.gz`, or an S3 prefix ending in `/` of unpacked files; `{account}` and `{region}` replaced) of a second, one-instance endpoint that policies' `shadow` sections ask (`SHADOW_ENDPOINT_NAME` of the decide functions, which may then invoke it); empty: none, nothing created",
    parse: (value) => (value === "" ? "" : s3ModelUrl(value)),
  },
  {
    name: "shadowInstanceType",
    defaultValue: "",
    description:
      "instance type of the candidate endpoint (with `shadowModelDataUrl`); empty: the decision endpoint's (`cpuInstanceType`, or the first of `gpuInstancePools`)",
    parse: (value) => (value === "" ? "" : instanceType(value)),
  },
];
