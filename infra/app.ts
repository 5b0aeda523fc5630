import { App, Validations } from "aws-cdk-lib";
import { AwsSolutionsChecks } from "cdk-nag";
import { cdkProjectRoot } from "./config/cdkProjectRoot.js";
import { InfraConfigError } from "./config/errors.js";
import { readInfraSettings } from "./config/readInfraSettings.js";
import { DecisionsStack } from "./DecisionsStack.js";

// The CDK app (`npx cdk synth|deploy`, see cdk.json): the context is read and validated once,
// here; cdk-nag's AwsSolutions pack runs on every synth, and an unacknowledged finding fails it.
const app = new App();
const settings = (() => {
  try {
    return readInfraSettings(app.node);
  } catch (error) {
    if (!(error instanceof InfraConfigError)) throw error;
    // The message names every bad knob; a stack trace would only bury it.
    console.error(error.message);
    process.exit(1);
  }
})();
new DecisionsStack(app, settings.stackName, {
  settings,
  sources: { projectRoot: cdkProjectRoot() },
  description: "Decision pipeline: SQS → Lambda → SageMaker (llama.cpp decision model) → DynamoDB",
});
Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
app.synth();
