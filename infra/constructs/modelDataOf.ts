import type { CfnModel } from "aws-cdk-lib/aws-sagemaker";
import { parseS3Uri, type S3Location } from "./parseS3Uri.js";

/** Where a SageMaker model's files are, and how the container receives them. */
export interface ModelData {
  /** The container's model-data properties: `modelDataUrl`, or `modelDataSource` for a prefix. */
  container: Pick<CfnModel.ContainerDefinitionProperty, "modelDataUrl" | "modelDataSource">;
  /** Bucket and key (a `.tar.gz`) or key prefix (ending in `/`). */
  location: S3Location;
  /** `true` for an S3 prefix copied as is (no archive). */
  unpacked: boolean;
}

/**
 * The model data of an `s3://` URI: a URI ending in `/` is an S3 prefix of unpacked files, given
 * to SageMaker as `ModelDataSource` with `CompressionType: None` (a multi-GB GGUF is copied, not
 * tar-gunzipped at every instance start); anything else is a `model.tar.gz` (`ModelDataUrl`).
 */
export function modelDataOf(uri: string): ModelData {
  const location = parseS3Uri(uri);
  if (!uri.endsWith("/")) return { container: { modelDataUrl: uri }, location, unpacked: false };
  return {
    container: {
      modelDataSource: { s3DataSource: { s3Uri: uri, s3DataType: "S3Prefix", compressionType: "None" } },
    },
    location,
    unpacked: true,
  };
}
