import type { PreflightCheck } from "./PreflightCheck.js";

/** The standard endpoint's image is in the deploy region: SageMaker pulls from its own region only. */
export function checkImageRegion(imageRegion: string | undefined, region: string): PreflightCheck[] {
  if (imageRegion === undefined) return [];
  return [
    imageRegion === region
      ? { name: "standard image region", status: "pass", detail: `the image is in ${region}` }
      : {
          name: "standard image region",
          status: "fail",
          detail: `standardImage is in ${imageRegion}, the stack deploys to ${region}: use 763104351884.dkr.ecr.${region}.amazonaws.com/llama-cpp@sha256:… (the digest of the same release in ${region})`,
        },
  ];
}
